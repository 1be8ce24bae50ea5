// The owner's engines at their edges, end to end: the real bot, the local Discord, the sandbox Voice API and the
// engine doubles over real HTTP. An answer is checked at the engine's door (an empty WAV is the engine's failure,
// eSpeak NG speaks for it, nothing of it is cached); a line nobody wants any more is not rendered (its request
// closed, its slot free for the next line); an engine down when SayBot starts has its voices stood in for, and is
// used again once it answers. Only the order of events is asserted.
import { afterEach, describe, expect, it } from 'vitest';
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import {
  DEFAULT_VOICEVOX_SPEAKERS,
  startSpeechServerDouble,
  startVoicevoxDouble,
  voicevoxStylePitchHz,
  type VoicevoxDouble,
} from '@saybot/engine-doubles';
import { useHarnessPerTest } from '../support/file-harness.ts';
import {
  defaultGuilds,
  pitchOf,
  runCommand,
  voiceStateSeen,
  type Harness,
  type HarnessOptions,
} from '../support/harness.ts';
import { ALICE, BOB, GENERAL, LONDON, LONDON_ADMIN, MINJI, SEOUL, londonWith } from '../support/world.ts';
import { previewScene, pressSceneButton } from '../support/scene-preview.ts';

const startHarness = useHarnessPerTest();
let voicevox: VoicevoxDouble | undefined;
afterEach(async () => {
  await voicevox?.close();
  voicevox = undefined;
});

const WAIT_MS = 60_000;
/** What a finished /say in a voice channel answers, or a refusal. */
const FINAL = /^(Spoke|The|This|Something|Nothing|Stopped|Skipped)/;
/** What a line cut because its member lost a right ends with: a private note (the line's own reply is deleted). */
const REVOKED = /so I stopped speaking for you there; the rest was dropped\.$/;

async function withVoicevox(
  double: VoicevoxDouble,
  env: Record<string, string> = {},
  engines: HarnessOptions['engines'] = {},
): Promise<Harness> {
  return startHarness({
    config: { voiceIdleTimeoutMs: 60_000 },
    env: { VOICEVOX_URL: double.url, FREE_VOICE: 'on', ...env },
    engines,
  });
}

/** Asks /say; its interaction, whose answers come as the line goes (none may come before its render ends). */
function say(h: Harness, text: string, options: { guildId?: string; userId?: string; voice?: string } = {}) {
  return h.discord.command({
    guildId: options.guildId ?? LONDON,
    userId: options.userId ?? ALICE,
    name: 'say',
    options: [
      { name: 'text', value: text },
      ...(options.voice === undefined ? [] : [{ name: 'voice', value: options.voice }]),
    ],
  });
}

/** Whether `heard` Hz is `expected` Hz within a semitone. */
const near = (heard: number | undefined, expected: number) =>
  heard !== undefined && Math.abs(12 * Math.log2(heard / expected)) < 1;

/** Until `ready()` holds, or a generous bound (a busy host): the order of events, not a time, is what is tested. */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const syntheses = (double: VoicevoxDouble) => double.requests.filter((r) => r.path === '/synthesis');
// What was asked of the engine, a list read again counted once: a voice it lacks has its list read again at most once
// in 5 s, so a busy host that spreads two lines over more than 5 s reads it twice, by design.
const asked = (double: VoicevoxDouble) =>
  double.requests.map((r) => r.path).filter((path, i, paths) => path !== '/speakers' || paths[i - 1] !== path);

/** The double restarted on its port with its list changed, once the bot has read its list: style 10 gone, a style 77
 * added to its first speaker. */
async function changedList(h: Harness, double: VoicevoxDouble): Promise<VoicevoxDouble> {
  await until(() => h.logs().includes('engine voices fetched'), 'the bot reads the list');
  const port = Number(new URL(double.url).port);
  await double.close();
  const [first, ...rest] = DEFAULT_VOICEVOX_SPEAKERS.map((s) => ({
    ...s,
    styles: s.styles.filter((t) => t.id !== 10),
  }));
  const added = { ...first!, styles: [...first!.styles, { name: 'あたらしい', id: 77 }] };
  return startVoicevoxDouble({ port, speakers: [added, ...rest] });
}

describe("the owner's engines at their edges", () => {
  it("an empty WAV is the engine's failure: eSpeak NG speaks for it, said so, and nothing of it is cached", async () => {
    voicevox = await startVoicevoxDouble();
    const h = await withVoicevox(voicevox);
    voicevox.faults.set({ fault: 'empty', path: '/synthesis' });
    const text = 'からっぽの答えです。';
    const fallen = await (
      await say(h, text, { voice: 'voicevox:0' })
    ).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
    expect(fallen.content).toMatch(/^Spoke/);
    expect(fallen.content).toContain("the bot's own speech engine could not speak it");
    expect(fallen.content).toContain('`free-ja-');
    expect(fallen.content).not.toContain('voice service');
    expect(h.logs()).not.toContain('ClipError');
    // The engine is fixed: the same text in the same voice asks it again and is heard in its voice.
    voicevox.faults.set('none');
    const asked = syntheses(voicevox).length;
    h.discord.clearAudio(LONDON);
    const fixed = await (
      await say(h, text, { voice: 'voicevox:0' })
    ).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
    expect(fixed.content).toMatch(/^Spoke/);
    expect(fixed.content).not.toContain('`free-ja-');
    expect(syntheses(voicevox).length).toBe(asked + 1);
    const heard = await h.discord.waitForAudio(LONDON, { minSeconds: 0.3 });
    expect(near(pitchOf(heard), voicevoxStylePitchHz(0)!)).toBe(true);
  });

  // bb12: the list was read every ten minutes only; a voice added since was refused as one the engine "no longer
  // lists", and one removed was sent again and stood in for on every line until then.
  for (const front of ['/say', '/myvoice set'])
    it(`a voice the engine added since its list was read is taken at once by ${front}`, async () => {
      voicevox = await startVoicevoxDouble();
      const h = await withVoicevox(voicevox);
      voicevox = await changedList(h, voicevox);
      if (front === '/say') {
        const spoken = await (
          await say(h, 'あたらしい声です。', { voice: 'voicevox:77' })
        ).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
        expect(spoken.content).toMatch(/^Spoke/);
        expect(spoken.content).not.toContain('`free-ja-');
        expect(syntheses(voicevox).some((r) => r.speaker === 77)).toBe(true);
      } else {
        const saved = await runCommand(h, {
          guildId: LONDON,
          userId: ALICE,
          name: 'myvoice',
          subcommand: 'set',
          options: { voice: 'voicevox:77' },
        });
        expect(saved.content).toContain('voicevox:77');
        expect(saved.content).not.toContain('not offered now');
      }
    });

  it('a voice the engine refuses has its list read again: that line and the next are refused in true words', async () => {
    voicevox = await startVoicevoxDouble();
    const h = await withVoicevox(voicevox);
    voicevox = await changedList(h, voicevox);
    const WORDS = 'The voice "voicevox:10" is not offered now: its speech engine does not list it, or is not set up.';
    const sayGone = async () =>
      (await say(h, 'もういない声です。', { voice: 'voicevox:10' })).waitFor(
        (r) => FINAL.test(r.content ?? ''),
        WAIT_MS,
      );
    // Sent on the list it had, refused by the engine (422): the list read again says why, and nothing stands in.
    expect((await sayGone()).content).toContain(WORDS);
    expect(voicevox.requests.map((r) => r.path)).toEqual(['/audio_query', '/speakers']);
    // The next line is refused before anything is sent.
    expect((await sayGone()).content).toContain(WORDS);
    expect(asked(voicevox)).toEqual(['/audio_query', '/speakers']);
  });

  // bb13: a saved voice its engine stopped listing was refused as if the member had named it, with no word of where
  // it came from or how to change it (the service's refusal of a saved voice says both).
  it('a saved voice its engine no longer lists is refused naming where it came from and how to change it, en and ja', async () => {
    voicevox = await startVoicevoxDouble();
    const admin = { id: LONDON_ADMIN, username: 'alex', permissions: PermissionFlagsBits.ManageGuild };
    const h = await startHarness({
      config: { voiceIdleTimeoutMs: 60_000 },
      env: { VOICEVOX_URL: voicevox.url, FREE_VOICE: 'on' },
      guilds: [...defaultGuilds().slice(0, 1), londonWith([...defaultGuilds()[1]!.members, admin])],
    });
    await until(() => h.logs().includes('engine voices fetched'), 'the bot reads the list');
    const saved = { voice: 'voicevox:10' };
    await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'myvoice', subcommand: 'set', options: saved });
    const options = { name: 'ten', ...saved };
    await runCommand(h, { guildId: LONDON, userId: LONDON_ADMIN, name: 'preset', subcommand: 'save', options });
    voicevox = await changedList(h, voicevox);
    // ALICE's default: sent on the old list, refused by the engine; then the list read again says why.
    const own = await (await say(h, 'もういない声です。')).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
    expect(own.content).toMatch(/^The voice `voicevox:10` \(VOICEVOX:[^)]+\) \(your default\) is not offered now/);
    expect(own.content).toContain('/myvoice set changes your default, /preset save (Manage Server) a preset.');
    // BOB (Japanese client) by the preset: refused before anything is sent, in his language.
    const { handle } = await runCommand(h, {
      guildId: LONDON,
      userId: BOB,
      name: 'say',
      options: { text: 'もういない声です。', preset: 'ten' },
    });
    const preset = await handle.waitFor((r) => r.files.length > 0 || /。$/.test(r.content ?? ''), WAIT_MS);
    expect(preset.files).toHaveLength(0);
    expect(preset.content).toContain('`voicevox:10`（プリセット「ten」） は今は使えません');
    expect(preset.content).toContain('/preset save（サーバー管理）');
    expect(asked(voicevox)).toEqual(['/audio_query', '/speakers']);
  });

  it("a scene's engine line spoken by eSpeak NG leaves its paid line to the service: asked for and billed (FREE_VOICE=chosen)", async () => {
    voicevox = await startVoicevoxDouble();
    const h = await withVoicevox(voicevox, { FREE_VOICE: 'chosen' });
    voicevox.faults.set({ fault: 'empty', path: '/synthesis' });
    const paid = 'A paid line after the engine failed.';
    const script = ['cast: Ann = voicevox:0, Ben = voice-b-en-m-01', 'Ann: エンジンの行です。', `Ben: ${paid}`];
    const shown = await previewScene(h, LONDON, script.join('\n'), 'file');
    const billed = h.sandbox.charactersBilled();
    const done = await (
      await pressSceneButton(h, LONDON, shown, shown.confirm)
    ).waitFor((r) => (r.content ?? '').startsWith('🎬 Posted the scene'), WAIT_MS);
    // The engine's line in eSpeak NG, said so; the paid line in its own voice: no free voice stands in for the service,
    // which never failed (nor may one: FREE_VOICE=chosen).
    expect(done.content).toContain("Some lines were spoken by the free voice: the bot's own speech engine could not");
    expect(syntheses(voicevox).length).toBeGreaterThan(0);
    expect(h.sandbox.requests.filter((r) => r.endpoint === 'tts').map((r) => r.text)).toEqual([paid]);
    expect(h.sandbox.charactersBilled()).toBe(billed + paid.length);
  });

  // bb7: "The voice service counted 35 characters for this, which are spent. ... Nothing was charged; ..." read as a
  // contradiction: the engine's words speak of its line alone.
  it("a scene's engine line failing after its paid line (FREE_VOICE=off): the paid figure, and nothing that unsays it", async () => {
    voicevox = await startVoicevoxDouble();
    const h = await withVoicevox(voicevox, { FREE_VOICE: 'off', CACHE_MAX_MB: '0' });
    voicevox.faults.set({ fault: 'empty', path: '/synthesis' });
    const paid = 'A paid line before the engine line.'; // 35 characters
    const script = ['cast: Ann = voicevox:0, Ben = voice-b-en-m-01', `Ben: ${paid}`, 'Ann: エンジンの行です。'];
    const shown = await previewScene(h, LONDON, script.join('\n'), 'file');
    const done = await (
      await pressSceneButton(h, LONDON, shown, shown.confirm)
    ).waitFor((r) => /speech engine/.test(r.content ?? ''), WAIT_MS);
    expect(h.sandbox.charactersBilled()).toBe(paid.length);
    expect(done.content?.match(/\b35\b/g)).toHaveLength(1);
    expect(done.content).toMatch(/counted 35 characters for this, which are spent/);
    expect(done.content).not.toMatch(/nothing was (charged|spent)/i);
  });

  // bb7: three lines spoken free (two for the failing service, one eSpeak NG standing in for the engine) showed "(1 in place of the paid
  // voice)": each line is counted as what it was.
  it('a scene spoken free for the failing service and the failing engine (FREE_VOICE=fallback): /usage counts each line as what it was', async () => {
    voicevox = await startVoicevoxDouble();
    const h = await withVoicevox(voicevox, { FREE_VOICE: 'fallback', CACHE_MAX_MB: '0' });
    voicevox.faults.set({ fault: 'empty', path: '/synthesis' });
    h.sandbox.injectFault({ kind: 'service-error', status: 503, endpoint: 'tts', times: Infinity });
    const script = [
      'cast: Ann = voicevox:0, Ben = voice-b-en-m-01',
      'Ben: A paid line before the engine line.',
      'Ann: エンジンの行です。',
      'Ben: A paid line after the engine failed.',
    ];
    const shown = await previewScene(h, LONDON, script.join('\n'), 'file');
    const done = await (
      await pressSceneButton(h, LONDON, shown, shown.confirm)
    ).waitFor((r) => (r.content ?? '').startsWith('🎬 Posted the scene'), WAIT_MS);
    expect(done.content).toContain('Some lines were spoken by the free voice');
    expect(h.sandbox.charactersBilled()).toBe(0);
    h.sandbox.clearFaults();
    const usage = await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'usage' });
    expect(usage.content).toContain(
      'Lines spoken by the free voice this month: 3, at no charge (2 in place of the paid voice).',
    );
  });

  // bb9: the budget refused the paid voice, FREE_VOICES' engine voice failed, eSpeak NG spoke: the reply named the engine
  // as the cause and /usage counted the line as the speech server's.
  it("refused for money, FREE_VOICES' engine voice failing: eSpeak NG speaks, said for the budget and counted as its own", async () => {
    const speech = await startSpeechServerDouble();
    try {
      speech.faults.set('empty');
      const h = await startHarness({
        config: { voiceIdleTimeoutMs: 60_000 },
        env: {
          FREE_VOICE: 'fallback',
          FREE_VOICES: 'en=speech:am_adam',
          SPEECH_SERVER_URL: speech.url,
          BUDGET_GUILD_MONTHLY_CHARS: '10',
        },
      });
      const done = await (
        await say(h, 'Past the budget and past the engine.', { voice: 'voice-b-en-m-01' })
      ).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
      expect(done.content).toMatch(/^Spoke/);
      expect(done.content).toContain("`free-en-f`, the free voice: the server's budget for this month is reached");
      expect(done.content).not.toContain('speech engine');
      expect(h.sandbox.charactersBilled()).toBe(0);
      const usage = await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'usage' });
      expect(usage.content).toContain(
        'Lines spoken by the free voice this month: 1, at no charge (1 in place of the paid voice).',
      );
      expect(usage.content).not.toContain('the speech server 1');
    } finally {
      await speech.close();
    }
  });

  it('/stop closes the render in flight and frees its slot: the next line is rendered while another server still waits', async () => {
    voicevox = await startVoicevoxDouble();
    const h = await withVoicevox(voicevox);
    // Every render takes ten minutes: both of the engine's slots are taken, one by each server.
    voicevox.faults.set({ fault: 'slow:600000', path: '/synthesis' });
    const stopped = await say(h, 'とまるせりふ。', { voice: 'voicevox:0' });
    await until(() => syntheses(voicevox!).length === 1, 'the first render');
    await say(h, '待っている別のサーバーです。', { guildId: SEOUL, userId: MINJI, voice: 'voicevox:10' });
    await until(() => syntheses(voicevox!).length === 2, 'the second render');
    const [first, second] = syntheses(voicevox);
    await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'stop' });
    await until(() => first!.closed === true, 'the stopped render closed');
    expect(second!.closed).toBeUndefined();
    await stopped.waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
    // The engine answers at once again: the next line takes the freed slot and is heard.
    voicevox.faults.set('none');
    h.discord.clearAudio(LONDON);
    const next = await (
      await say(h, 'つぎのせりふ。', { voice: 'voicevox:0' })
    ).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
    expect(next.content).toMatch(/^Spoke/);
    expect(next.content).not.toContain('`free-ja-');
    expect(syntheses(voicevox).length).toBe(3);
    // The other server's render was never let go of.
    expect(second!.closed).toBeUndefined();
  });

  it.each(['stop', 'skip', 'mute'] as const)(
    "%s once the engine's audio streams closes its connection and frees its slot; the cut line is not cached",
    async (action) => {
      voicevox = await startVoicevoxDouble();
      const h = await withVoicevox(voicevox);
      // Its audio sent at twice the pace it plays (well within the body's deadline): still arriving when it is stopped.
      voicevox.faults.set({ fault: 'paced:200', path: '/synthesis', times: 1 });
      // Each some 30 s of speech: long work, which never takes the engine's last slot.
      const long = (n: number) => `${n}番目、${'あいうえおかきくけこ'.repeat(48)}`;
      const stopped = await say(h, long(1), { voice: 'voicevox:0' });
      await until(() => (syntheses(voicevox!)[0]?.bodyBytes ?? 0) > 100_000, 'its audio streaming');
      // Heard before it is cut (its stream has some 15 s to go): a line cut before any of it was heard is told so in
      // other words ("none of it had started").
      await h.discord.waitForPacket(LONDON, (packet) => !packet.silence, WAIT_MS);
      const [first] = syntheses(voicevox);
      if (action === 'mute')
        await voiceStateSeen(h, ALICE, () => h.discord.setVoiceState(LONDON, ALICE, GENERAL, { mute: true }));
      else await runCommand(h, { guildId: LONDON, userId: ALICE, name: action });
      await say(h, long(2), { guildId: SEOUL, userId: MINJI, voice: 'voicevox:10' });
      await until(() => syntheses(voicevox!).length === 2, "the other server's render");
      // The stopped line's connection was closed before the other server's line reached the engine.
      expect(first!.closed).toBe(true);
      // Stopped or skipped, the reply says so; a member muted is told privately why the rest was dropped.
      const ended = await stopped.waitFor((r) => FINAL.test(r.content ?? '') || REVOKED.test(r.content ?? ''), WAIT_MS);
      if (action === 'mute') {
        expect(ended.content).toMatch(/server-muted you/);
        expect(ended.flags).toBe(MessageFlags.Ephemeral);
        await voiceStateSeen(h, ALICE, () => h.discord.setVoiceState(LONDON, ALICE, GENERAL, { mute: false }));
      } else expect(ended.content).toMatch(FINAL);
      // Nothing of the cut line was kept: asked again, the engine renders it again, and it is heard in the engine's
      // voice (not eSpeak NG's); then stopped, as nothing here needs its 30 s played out.
      h.discord.clearAudio(LONDON);
      const again = await say(h, long(1), { voice: 'voicevox:0' });
      let heard = 0;
      await h.discord.waitForPacket(LONDON, (packet) => !packet.silence && ++heard >= 25, WAIT_MS);
      expect(syntheses(voicevox).length).toBe(3);
      expect(near(pitchOf(h.discord.heard(LONDON)), voicevoxStylePitchHz(0)!)).toBe(true);
      await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'stop' });
      const againEnded = await again.waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
      expect(againEnded.content).toMatch(/^Stopped/);
      expect(againEnded.content).not.toContain('`free-ja-');
    },
  );

  it('an engine streaming a line at the pace it plays is heard to its end, past the deadline of a body of unknown length', async () => {
    voicevox = await startVoicevoxDouble();
    // A flat deadline (3 s) shorter than the line: its WAV, which declares its samples, has as long as they play and a
    // stall (SayBot's 30 s: a busy host's stream falls seconds behind) more.
    const h = await withVoicevox(voicevox, {}, { deadlines: { bodyMs: 3_000 } });
    voicevox.faults.set({ fault: 'paced:100', path: '/synthesis' });
    // Some 4.8 s of speech, sent as it plays: its stream lasts past the 3 s however fast the host.
    const spoken = await (
      await say(h, `ながいせりふ、${'あいうえおかきくけこ'.repeat(7)}`, { voice: 'voicevox:0' })
    ).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
    expect(spoken.content).toMatch(/^Spoke/);
    // Heard whole, and longer than the flat deadline that would have cut it.
    expect(Number(/^Spoke (\d+\.\d) s/.exec(spoken.content ?? '')?.[1])).toBeGreaterThan(3);
    expect(spoken.content).not.toContain('`free-ja-');
    const [line] = syntheses(voicevox);
    expect(line!.closed).toBeUndefined();
    expect(line!.status).toBe(200);
  });

  it("a file's engine line that fails once its audio began is spoken by eSpeak NG with the notice: nothing was delivered yet", async () => {
    voicevox = await startVoicevoxDouble();
    const h = await withVoicevox(voicevox);
    // A valid WAV whose body ends half-way through the samples its header declares.
    voicevox.faults.set({ fault: 'truncated', path: '/synthesis', times: 1 });
    const answer = await (
      await h.discord.command({
        guildId: LONDON,
        userId: ALICE,
        name: 'say',
        options: [
          { name: 'text', value: 'ながすぎる答えです。' },
          { name: 'voice', value: 'voicevox:0' },
          { name: 'output', value: 'file' },
        ],
      })
    ).waitFor((r) => FINAL.test(r.content ?? '') || (r.files?.length ?? 0) > 0, WAIT_MS);
    expect(answer.content).not.toContain('could not speak this line');
    expect(answer.content).toContain("the bot's own speech engine could not speak it");
    expect(answer.content).toContain('`free-ja-');
    expect(answer.files).toHaveLength(1);
    expect(syntheses(voicevox)[0]!.fault).toBe('truncated');
  });

  it('/leave closes the render in flight and lets go of the line behind it: neither is rendered, the next line is', async () => {
    voicevox = await startVoicevoxDouble();
    const h = await withVoicevox(voicevox);
    // In the channel before anything is asked: /leave then leaves a joined channel, not a join under way.
    expect((await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'join' })).content).toMatch(/^Joined/);
    voicevox.faults.set({ fault: 'slow:600000', path: '/synthesis' });
    await say(h, '一つ目。', { voice: 'voicevox:0' });
    await until(() => syntheses(voicevox!).length === 1, 'the first render');
    await say(h, '二つ目のせりふ。', { guildId: SEOUL, userId: MINJI, voice: 'voicevox:10' });
    await until(() => syntheses(voicevox!).length === 2, 'the second render');
    // Behind the first in its server's queue, or waiting for one of the engine's slots.
    const behind = 'うしろで待っている長めのせりふです。';
    await (await say(h, behind, { voice: 'voicevox:1' })).waitFor((r) => /^Queued/.test(r.content ?? ''), WAIT_MS);
    await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'leave' });
    const [first, second] = syntheses(voicevox);
    await until(() => first!.closed === true, 'the render closed at /leave');
    voicevox.faults.set('none');
    h.discord.clearAudio(LONDON);
    const next = await (
      await say(h, 'またきました。', { voice: 'voicevox:0' })
    ).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
    expect(next.content).toMatch(/^Spoke/);
    expect(next.content).not.toContain('`free-ja-');
    // The line behind (the only one in style 1) was never rendered; the other server's render was never let go of.
    // (A slow render's speaker is read once its pause is over: unknown for the two held.)
    expect(syntheses(voicevox).map((r) => r.speaker)).toEqual([undefined, undefined, 0]);
    expect(second!.closed).toBeUndefined();
  });

  it("short before long: with one long line rendering and another waiting, another server's short line takes the next slot", async () => {
    voicevox = await startVoicevoxDouble();
    const h = await withVoicevox(voicevox);
    voicevox.faults.set({ fault: 'slow:600000', path: '/synthesis' });
    // Each some 40 s of speech: long work, as SayBot's work classes count it.
    const long = (n: number) => `${n}番目の長いせりふ、${'あいうえおかきくけこ'.repeat(30)}`;
    const file = (guildId: string, userId: string, text: string) =>
      h.discord.command({
        guildId,
        userId,
        name: 'say',
        options: [
          { name: 'text', value: text },
          { name: 'voice', value: 'voicevox:0' },
          { name: 'output', value: 'file' },
        ],
      });
    const queries = () => voicevox!.requests.filter((r) => r.path === '/audio_query');
    await file(LONDON, ALICE, long(1));
    await until(() => queries().length === 1, 'the first long line sent');
    await file(LONDON, ALICE, long(2));
    const short = 'みじかい。';
    await file(SEOUL, MINJI, short);
    await until(() => queries().length === 2, 'a second line sent');
    expect(queries()[1]!.inputLength).toBe([...short].length);
  });

  it('an engine down when SayBot starts: its voice is spoken by eSpeak NG with the notice, and its own once it answers', async () => {
    voicevox = await startVoicevoxDouble({ fault: 'down' });
    const h = await withVoicevox(voicevox);
    const fallen = await (
      await say(h, 'エンジンはまだ起きていません。', { voice: 'voicevox:0' })
    ).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
    expect(fallen.content).toMatch(/^Spoke/);
    expect(fallen.content).not.toContain('is not offered now');
    expect(fallen.content).toContain("the bot's own speech engine could not speak it");
    expect(fallen.content).toContain('`free-ja-');
    voicevox.faults.set('none');
    // Once it answers, its own voice speaks again (tried a line at a time; no time is asserted).
    let back = '';
    for (let tries = 0; tries < 60 && !back.includes('VOICEVOX:ダブル葵'); tries++) {
      const answer = await (
        await say(h, `戻りましたか、${tries}回目。`, { voice: 'voicevox:0' })
      ).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
      back = answer.content ?? '';
      expect(back).not.toContain('is not offered now');
      if (!back.includes('VOICEVOX:ダブル葵')) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(back).toContain('VOICEVOX:ダブル葵');
    expect(back).not.toContain('`free-ja-');
  });

  it("a member's saved engine voice, its engine down at a restart, is spoken by eSpeak NG with the notice", async () => {
    voicevox = await startVoicevoxDouble();
    const h = await withVoicevox(voicevox);
    const saved = await runCommand(h, {
      guildId: LONDON,
      userId: ALICE,
      name: 'myvoice',
      subcommand: 'set',
      options: { voice: 'voicevox:0' },
    });
    expect(saved.content).toContain('voicevox:0');
    voicevox.faults.set('down');
    await h.restart();
    const fallen = await (
      await say(h, 'いつもの声はお休みです。')
    ).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
    expect(fallen.content).toMatch(/^Spoke/);
    expect(fallen.content).not.toContain('is not offered now');
    expect(fallen.content).toContain('`free-ja-');
  });

  it('an engine down after its voices were fetched: a voice it did not list is refused by /say (voice and file) and /myvoice in the same words, never sent', async () => {
    voicevox = await startVoicevoxDouble();
    const h = await withVoicevox(voicevox);
    voicevox.faults.set('down');
    // A line of a voice it lists finds it down (stood in for), so its list is now an old one.
    const stood = await (
      await say(h, 'エンジンが止まりました。', { voice: 'voicevox:10' })
    ).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
    expect(stood.content).toContain('`free-ja-');
    const unlisted = 'The voice "voicevox:999" is not offered now';
    const spoken = await (
      await say(h, 'この声はありません。', { voice: 'voicevox:999' })
    ).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
    expect(spoken.content).toContain(unlisted);
    const { handle } = await runCommand(h, {
      guildId: LONDON,
      userId: ALICE,
      name: 'say',
      options: { text: 'この声はありません。', voice: 'voicevox:999', output: 'file' },
    });
    const file = await handle.waitFor((r) => r.files.length > 0 || FINAL.test(r.content ?? ''), WAIT_MS);
    expect(file.files).toHaveLength(0);
    expect(file.content).toContain(unlisted);
    const saved = await runCommand(h, {
      guildId: LONDON,
      userId: ALICE,
      name: 'myvoice',
      subcommand: 'set',
      options: { voice: 'voicevox:999' },
    });
    expect(saved.content).toContain(unlisted);
    expect(voicevox.requests.some((r) => r.speaker === 999)).toBe(false);
  });

  it('an engine down since start (its voices never known): /say stands in for its voice, /myvoice set does not save it and says the engine is not answering', async () => {
    voicevox = await startVoicevoxDouble({ fault: 'down' });
    const h = await withVoicevox(voicevox);
    const stood = await (
      await say(h, 'まだ知らない声です。', { voice: 'voicevox:10' })
    ).waitFor((r) => FINAL.test(r.content ?? ''), WAIT_MS);
    expect(stood.content).toContain('`free-ja-');
    const saved = await runCommand(h, {
      guildId: LONDON,
      userId: ALICE,
      name: 'myvoice',
      subcommand: 'set',
      options: { voice: 'voicevox:10' },
    });
    expect(saved.content).not.toContain('is not offered now');
    expect(saved.content).toContain('is not answering now');
    const shown = await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'myvoice', subcommand: 'show' });
    expect(shown.content).not.toContain('voicevox:10');
  });
});
