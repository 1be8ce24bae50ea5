// The local Discord's bot tokens have Discord's shape: the first part is the bot's user ID in base64. A random first
// part could begin with "Bot" or "Bearer", which discord.js strips from a token at login (Client.login), so that bot
// was refused with TokenInvalid: about one harness start in 30,000 (shared-part-fate failed so once).
import { describe, expect, it } from 'vitest';
import { fakeToken } from '@saybot/local-discord';

describe('fakeToken', () => {
  it("begins with a user ID in base64, as Discord's do, never with a word discord.js strips from a token", () => {
    for (let i = 0; i < 2000; i++) {
      const token = fakeToken();
      const [id, ...rest] = token.split('.');
      expect(Buffer.from(id!, 'base64url').toString()).toMatch(/^[1-9]\d{16,19}$/);
      expect(rest).toHaveLength(2);
      expect(token.replace(/^(Bot|Bearer)\s*/i, '')).toBe(token);
    }
  });
});
