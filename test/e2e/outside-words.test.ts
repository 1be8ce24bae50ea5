// Words from outside SayBot, seen as a member sees them: an engine's hostile names and the service's words never make a
// live link, mention or timestamp (read by Discord's rules: test/support/seen-in-discord.ts); FREE_VOICES speaks for
// a used-up month by itself; the free-request rate names what it counts; a file is named after the voice that spoke
// it, in a name every common file system takes. The real bot, the local Discord, the sandbox and the engine doubles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoicevoxDouble, type VoicevoxDouble, type VoicevoxSpeaker } from '@saybot/engine-doubles';
import { PLAN_LIMITS } from '@saybot/voice-sandbox';
import { fixture } from '../core/audio/fixtures.ts';
import { letMembersUse } from '../support/command-access.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand, type Harness } from '../support/harness.ts';
import { liveParts, seenText } from '../support/seen-in-discord.ts';
import { ALICE, GENERAL, LONDON } from '../support/world.ts';

const startHarness = useHarnessPerTest();

const uuid = (n: number) => `e0b1e5a0-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
/** Speakers named to link, ping and date: each name within the 40 characters SayBot keeps of a speaker's name. */
const HOSTILE: readonly VoicevoxSpeaker[] = [
  { name: '[a](http://a.b)[Nitro](http://e.vil/x)', speaker_uuid: uuid(1), styles: [{ name: 'ノーマル', id: 0 }] },
  { name: '[[x](http://y)](http://z)', speaker_uuid: uuid(2), styles: [{ name: '</cmd:1> <t:1:R>', id: 1 }] },
  { name: '<@123> <@&1> <#1> @everyone', speaker_uuid: uuid(3), styles: [{ name: 'https://e.vil', id: 2 }] },
  { name: 'ダブル雫', speaker_uuid: uuid(4), styles: [{ name: 'ノーマル', id: 20 }] },
];

let voicevox: VoicevoxDouble;
beforeAll(async () => {
  voicevox = await startVoicevoxDouble({ speakers: HOSTILE });
});
afterAll(async () => {
  await voicevox.close();
});

function withVoicevox(env: Record<string, string> = {}): Promise<Harness> {
  voicevox.faults.set('none');
  return startHarness({ config: { voiceIdleTimeoutMs: 60_000 }, env: { VOICEVOX_URL: voicevox.url, ...env } });
}

/** /say's last words (its reply, or its refusal), and the files it posted. */
async function say(h: Harness, options: Record<string, string>) {
  const { handle } = await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'say', options });
  return handle.waitFor(
    (r) => r.files.length > 0 || /^(Spoke|Here|The|This|You|Something)/.test(r.content ?? ''),
    60_000,
  );
}

/** Nothing in `content` is live but SayBot's own mention of the voice channel, and each of `words` reads as written. */
function expectSaidAsWritten(content: string, words: readonly string[]) {
  const own = (part: ReturnType<typeof liveParts>[number]) =>
    part.type === 'mention' && part.kind === 'channel' && part.id === GENERAL;
  expect(liveParts(content).filter((part) => !own(part))).toEqual([]);
  for (const word of words) expect(seenText(content)).toContain(word);
}

describe('words from outside, as a member sees them', () => {
  it("an engine's hostile names show as written in /voices, /say's reply and /join's notice: nothing in them live", async () => {
    const h = await withVoicevox();
    const listed = await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'voices', subcommand: 'list' });
    expectSaidAsWritten(listed.content, [
      '[a](http://a.b)[Nitro](http://e.vil/x) (ノーマル)',
      '[[x](http://y)](http://z) (</cmd:1> <t:1:R>)',
      '<@123> <@&1> <#1> @everyone (https://e.vil)',
      'VOICEVOX:[a](http://a.b)[Nitro](http://e.vil/x)',
    ]);
    const joined = await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'join' });
    expectSaidAsWritten(
      joined.content,
      HOSTILE.map((speaker) => `VOICEVOX:${speaker.name}`),
    );
    for (const [voice, credit] of [
      ['voicevox:0', 'VOICEVOX:[a](http://a.b)[Nitro](http://e.vil/x)'],
      ['voicevox:1', 'VOICEVOX:[[x](http://y)](http://z)'],
      ['voicevox:2', 'VOICEVOX:<@123> <@&1> <#1> @everyone'],
    ] as const) {
      const done = await say(h, { text: `A line in ${voice}.`, voice });
      expect(done.content).toMatch(/^Spoke/);
      expectSaidAsWritten(done.content ?? '', [credit]);
    }
  });

  it("the service's words on a 400 are quoted inert, as a 5xx's are", async () => {
    const h = await withVoicevox();
    const said = '[Nitro](http://e.vil/x) **now** @everyone <@&1> https://e.vil';
    for (const status of [400, 503]) {
      h.sandbox.injectFault({ kind: 'service-error', status, message: said, times: 3 });
      const refused = await say(h, { text: `Refused with words, ${status}.`, output: 'file' });
      h.sandbox.clearFaults();
      expect(refused.files).toHaveLength(0);
      expectSaidAsWritten(refused.content ?? '', [said]);
    }
  });

  it.each([
    ['a masked link', 'clone_`[l](https://evil.example/c)`'],
    ['a ping and a time', 'clone_` @everyone <@300000000000000011> <t:0:R> `'],
  ])(
    "a cloned voice's ID from the service, carrying %s, shows inert in /clone's public reply, /voices and /myvoice",
    async (_, id) => {
      const h = await withVoicevox();
      letMembersUse(h.discord, LONDON, 'clone', [ALICE]);
      const clip = fixture('tone-220hz-5s-48k.wav');
      h.sandbox.injectFault({
        kind: 'response',
        status: 200,
        endpoint: 'voice-clone',
        contentType: 'audio/wav',
        body: clip,
        headers: { 'X-Voice-Id': id },
      });
      const { handle } = await runCommand(h, {
        guildId: LONDON,
        userId: ALICE,
        name: 'clone',
        options: { text: 'Hello, this is me.', name: 'c0', consent: true, output: 'file' },
        attachments: [{ option: 'audio', data: clip, filename: 'c0.wav', contentType: 'audio/wav' }],
      });
      const made = await handle.waitFor((r) => r.files.length > 0, 60_000);
      // Shown as code, whatever it holds: its backticks left out, so nothing in it can close the code and go live.
      const shown = id.replaceAll('`', '');
      expect(made.content).toContain('Here is the new voice "c0"');
      expectSaidAsWritten(made.content ?? '', [shown]);
      const listed = await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'voices', subcommand: 'list' });
      expect(listed.content).toContain('Cloned voices in this server');
      expectSaidAsWritten(listed.content, [`${shown} c0`]);
      // Chosen as a member's own voice, it is shown as their settings.
      for (const subcommand of ['set', 'show']) {
        const options = subcommand === 'set' ? { voice: 'c0' } : undefined;
        const mine = await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'myvoice', subcommand, options });
        expectSaidAsWritten(mine.content, [shown]);
      }
      const deleted = await runCommand(h, {
        guildId: LONDON,
        userId: ALICE,
        name: 'voices',
        subcommand: 'delete',
        options: { voice: 'c0' },
      });
      expect(deleted.content).toContain('Deleted the voice "c0"');
      expectSaidAsWritten(deleted.content, [shown]);
    },
  );

  it.each(['chosen', 'off'])(
    'FREE_VOICES alone speaks a used-up month in its voice (FREE_VOICE=%s: chosen as .env.example has it, off refuses)',
    async (freeVoice) => {
      const h = await withVoicevox({ FREE_VOICE: freeVoice, FREE_VOICES: 'ja=voicevox:20,*=espeak' });
      h.sandbox.setKeyPlan(h.apiKey, 'creator');
      h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator);
      const billed = h.sandbox.charactersBilled();
      const done = await say(h, { text: '今月の文字は使い切りました。', voice: 'voice-b-ja-f-01' });
      expect(h.sandbox.charactersBilled()).toBe(billed);
      if (freeVoice === 'off') {
        expect(done.content).not.toMatch(/^Spoke/);
        expect(done.content).not.toContain('voicevox:20');
        return;
      }
      expect(done.content).toMatch(/^Spoke/);
      expect(done.content).toContain('`voicevox:20` (VOICEVOX:ダブル雫)');
      expect(done.content).toContain("this month's characters are used up");
    },
  );

  it("the free-request rate refuses an engine's line in words that name what it counts", async () => {
    const h = await withVoicevox({ BUDGET_MEMBER_FREE_PER_MINUTE: '1' });
    const synthesised = () => voicevox.requests.filter((r) => r.path === '/synthesis').length;
    const before = synthesised();
    const first = await say(h, { text: 'The first free line.', voice: 'voicevox:20', output: 'file' });
    expect(first.files).toHaveLength(1);
    const refused = await say(h, { text: 'The second free line.', voice: 'voicevox:20', output: 'file' });
    expect(refused.files).toHaveLength(0);
    expect(refused.content).toContain('You asked within a minute for 1 thing that costs no characters,');
    expect(refused.content).toContain("lines in a free voice (eSpeak NG or this bot's own speech engines");
    expect(refused.content).toContain('Try again in');
    expect(synthesised() - before).toBe(1);
  });

  it('a file is named after the voice that spoke it, in a name every common file system takes', async () => {
    const h = await withVoicevox({ FREE_VOICE: 'on', FREE_VOICES: 'ja=voicevox:20,*=espeak' });
    const named = async (options: Record<string, string>) => {
      const done = await say(h, { ...options, output: 'file' });
      expect(done.files).toHaveLength(1);
      const name = done.files[0]!.name;
      // Windows' rules, the strictest of the common ones: none of \ / : * ? " < > | or a control character, no
      // trailing dot or space, no reserved device name, at most 255 characters (here far fewer).
      expect(name).toMatch(/^[^\\/:*?"<>|\p{Cc}]{1,100}$/u);
      expect(name).not.toMatch(/[. ]$|^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i);
      return name;
    };
    expect(await named({ text: 'エンジンの声です。', voice: 'voicevox:20' })).toMatch(/^saybot-voicevox-20\.\w+$/);
    // The month used up: FREE_VOICES' VOICEVOX voice speaks a preset voice's line, and names the file.
    h.sandbox.setKeyPlan(h.apiKey, 'creator');
    h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator);
    expect(await named({ text: '今月は使い切りました。', voice: 'voice-b-ja-f-01' })).toMatch(
      /^saybot-voicevox-20\.\w+$/,
    );
    // Its engine down: eSpeak NG speaks the line, and names the file.
    voicevox.faults.set('down');
    expect(await named({ text: 'エンジンが止まっています。', voice: 'voicevox:0' })).toMatch(
      /^saybot-free-ja-[fm]\.\w+$/,
    );
    voicevox.faults.set('none');
  });
});
