// "In voice now" and the owner console with helper bots, over HTTP against the real bot and the local Discord: the
// main bot in one channel and a helper in another are both listed (bot, channel, what it plays); a member who may not
// see a channel reads "a voice channel"; the console lists each helper (online, servers, in voice); no token on a page.
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { seoulWith, signedIn, managerAndMember, useDashboard } from '../../support/dashboard.ts';
import { runCommand } from '../../support/harness.ts';
import { LOUNGE, SEOUL } from '../../support/world.ts';

const OWNER = '380000000000000931';
const MEMBER = '380000000000000932';
const SECRET_ROOM = '220000000000000935';

const h = useDashboard({
  guilds: [
    {
      ...seoulWith(
        managerAndMember(
          { id: OWNER, username: 'owner', voiceChannelId: LOUNGE },
          { id: MEMBER, username: 'member', voiceChannelId: SECRET_ROOM },
        ),
        'en-US',
      ),
      voiceChannels: [
        { id: LOUNGE, name: 'lounge' },
        {
          id: SECRET_ROOM,
          name: 'secret room',
          // The manager may not see it: the page names it to the member inside, not to the manager.
          overwrites: [{ id: OWNER, type: 1, deny: PermissionFlagsBits.ViewChannel }],
        },
      ],
    },
  ],
  helpers: 1,
  discord: { applicationOwnerId: OWNER },
  config: { voiceIdleTimeoutMs: 60_000 },
});

const home = `/servers/${SEOUL}`;
const unescape = (text: string) =>
  text.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&').replaceAll('&lt;', '<');
const words = (markup: string) =>
  unescape(markup)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** The "in voice now" figure: its value and one line per seat. */
function inVoice(body: string) {
  const item = /id="glance-in-voice-item">([\s\S]*?<\/ul>)\s*<\/li>/.exec(body)?.[1] ?? '';
  return {
    value: words(/<span class="glance-value">([\s\S]*?)<\/span>/.exec(item)?.[1] ?? ''),
    seats: [...item.matchAll(/<li class="glance-seat">([\s\S]*?)<\/li>/g)].map((row) => words(row[1] ?? '')),
  };
}

/** The owner's /join seats the main bot in the lounge; the member's, elsewhere, a helper (the main bot has a listener). */
async function seated() {
  await runCommand(h, { guildId: SEOUL, userId: OWNER, name: 'join' });
  return runCommand(h, { guildId: SEOUL, userId: MEMBER, name: 'join' });
}

describe('in voice now, with a helper bot', () => {
  it('lists the main bot and the helper, each in its channel, hidden where the member may not see it', async () => {
    const joined = await seated();
    expect(joined.content).toContain(`<@${h.helpers[0]?.userId}>`);
    const owner = await signedIn(h, OWNER, home);
    const member = await signedIn(h, MEMBER, home);
    await expect
      .poll(async () => inVoice((await owner.get(home)).body), { timeout: 20_000 })
      .toEqual({
        value: 'Bots in voice: 2',
        seats: ['SayBot In lounge Quiet, nothing waiting.', 'SayBot 2 In a voice channel Quiet, nothing waiting.'],
      });
    expect(inVoice((await member.get(home)).body).seats).toEqual([
      'SayBot In lounge Quiet, nothing waiting.',
      'SayBot 2 In secret room Quiet, nothing waiting.',
    ]);
  });

  it('shows the owner each helper in the console: online, its servers, in voice; never its token', async () => {
    await seated();
    await expect.poll(() => h.discord.botVoiceChannel(SEOUL, h.helpers[0]?.userId)).toBe(SECRET_ROOM);
    const owner = await signedIn(h, OWNER, '/owner');
    const page = (await owner.get('/owner')).body;
    const part = /aria-labelledby="helpers-title"[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
    const rows = [...part.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => words(row[1] ?? ''));
    expect(rows).toEqual(['Helper Online Servers In voice', 'SayBot 2 online 1 1']);
    for (const token of [h.token, ...h.helpers.map((helper) => helper.token)]) {
      expect(page).not.toContain(token);
      expect((await owner.get(home)).body).not.toContain(token);
    }
  });
});
