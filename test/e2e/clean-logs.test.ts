// Clean logs end to end: replies Discord refuses, with files and private text, are logged as
// one line that names the error and its route, never the interaction token, the reply's text or the file's bytes.
// (Every e2e test's log is scanned the same way when its harness closes: test/support/log-leaks.ts.)
import { MessageFlags } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand, voiceMessageGuilds } from '../support/harness.ts';
import { logLeaks } from '../support/log-leaks.ts';
import { ALICE, BOB } from '../support/world.ts';

const guilds = voiceMessageGuilds();
const london = guilds[1];

const h = useFileHarness({ guilds });
// A test may arm a refusal its reply path never meets (the /usage test arms two routes, one is used): none may
// reach the next test, whichever order the suite runs them in.
afterEach(() => {
  h.discord.clearRefusals();
});

const lines = () => h.logs().split('\n').filter(Boolean);
const linesSince = (from: number) => lines().slice(from);

describe('replies Discord refuses', () => {
  it('a refused voice message: the error line has name, code, status, method and route, no bytes; the file fallback arrives', async () => {
    // The voice message is the interaction's response: the edit that carries it is refused.
    h.discord.refuse({
      route: 'webhook-edit',
      status: 400,
      code: 50035,
      message: 'Invalid Form Body',
      errors: { attachments: { 0: { _errors: [{ code: 'BASE_TYPE_INVALID', message: 'Invalid voice message.' }] } } },
    });
    const from = lines().length;
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: BOB,
      name: 'say',
      options: {
        text: 'Refused as a voice message, posted as a file.',
        voice: 'voice-b-en-m-01',
        output: 'voice-message',
      },
    });
    const reply = await handle.waitFor((r) => r.kind === 'follow-up', 60_000);
    expect(reply.files).toHaveLength(1);
    // The public response that waited for it is gone; the file is the member's alone.
    expect(handle.responses.some((r) => r.kind === 'delete')).toBe(true);
    expect(reply.flags).toBe(MessageFlags.Ephemeral);
    const logged = linesSince(from);
    const refusal = logged.find((l) => l.includes('"voice-message-fallback"') && l.includes('"refused"'));
    expect(refusal).toBeDefined();
    const err = (JSON.parse(refusal ?? '{}') as { err?: Record<string, unknown> }).err ?? {};
    expect(err).toMatchObject({ code: 50035, status: 400, method: 'PATCH' });
    expect(String(err['route'])).toMatch(/\/webhooks\/\d+\/:token\/messages\/(@|%40)original$/);
    expect(refusal).not.toContain('requestBody');
    expect(Buffer.byteLength(refusal ?? '')).toBeLessThan(8 * 1024);
    expect(logLeaks(logged, h.discord.interactions())).toEqual([]);
  });

  it('a refused private reply with a file (/usage): no interaction token and no reply text in any line', async () => {
    // The reply goes out as the interaction's callback or as an edit of its deferred answer: refuse both once.
    h.discord.refuse({
      route: 'interaction-callback',
      status: 400,
      code: 50035,
      message: 'Invalid Form Body',
      errors: { data: { _errors: [{ code: 'X', message: 'no' }] } },
    });
    h.discord.refuse({
      route: 'webhook-edit',
      status: 400,
      code: 50035,
      message: 'Invalid Form Body',
      errors: { content: { _errors: [{ code: 'X', message: 'no' }] } },
    });
    const from = lines().length;
    const started = h.discord.interactions().length;
    const handle = await h.discord.command({ guildId: london.id, userId: ALICE, name: 'usage', locale: 'en-US' });
    // The bot answers something (a failure note, or its retry) or gives up; wait for its error line either way.
    await expect
      .poll(() => linesSince(from).some((l) => /"level":(40|50)/.test(l) && l.includes('"err"')), { timeout: 20_000 })
      .toBe(true);
    expect(h.discord.interactions().length).toBe(started + 1);
    const logged = linesSince(from);
    expect(logged.some((l) => l.includes(handle.token))).toBe(false);
    expect(logged.some((l) => l.includes('requestBody'))).toBe(false);
    expect(logged.some((l) => /"route":"[^"]*\/(interactions|webhooks)\/\d+\/:token/.test(l))).toBe(true);
    expect(logLeaks(logged, h.discord.interactions())).toEqual([]);
    // The private text the bot tried to send is what Discord refused, so it is not in the fake's record: look for
    // the lines /usage always writes (the member's day, the bot's month).
    expect(logged.some((l) => l.includes('You today:') || l.includes('Whole bot:'))).toBe(false);
    expect((handle.responses[0]?.flags ?? MessageFlags.Ephemeral) & MessageFlags.Ephemeral).toBe(
      MessageFlags.Ephemeral,
    );
  });
});
