// /scene end to end: a script written in Discord's form (or a .txt), shown with its cast and cost, played or posted
// only once its member confirms, each line in its own voice (the sandbox's voices are tones at their own pitch), a
// posted file with its subtitles, every line its own cache entry, every budget and /stop holding.
import { describe, expect, it } from 'vitest';
import type { InteractionHandle, InteractionResponse } from '@saybot/local-discord';
import type { Fault } from '@saybot/voice-sandbox';
import { parseWavHeader } from '../../src/core/audio/codecs/wav.ts';
import { countCharacters } from '../../src/core/characters.ts';
import { HOLD_DEADLINE, heldWriteAhead } from '../support/held-write-ahead.ts';
import { parseSrtTimes } from '../support/srt-times.ts';
import { booksSettled } from '../support/books-settled.ts';
import { useFileHarness, useHarnessPerTest } from '../support/file-harness.ts';
import { defaultGuilds, runCommand, type Harness } from '../support/harness.ts';
import { linePitches } from '../support/scene-audio.ts';
import { ALICE } from '../support/world.ts';
import { previewScene, pressSceneButton, type Preview } from '../support/scene-preview.ts';

const [, london] = defaultGuilds() as [unknown, ReturnType<typeof defaultGuilds>[0]];
const GUILD = london.id;

const h = useFileHarness({ config: { voiceIdleTimeoutMs: 60_000 } });
const harnessFor = useHarnessPerTest();

const VOICES = { Ann: 'voice-b-en-f-01', Ben: 'voice-b-en-m-01', Kei: 'voice-b-ja-m-01' } as const;
const CAST = `cast: Ann = ${VOICES.Ann}, Ben = ${VOICES.Ben}, Kei = ${VOICES.Kei}`;

/** /scene new, its form filled with `script`, and the preview SayBot shows the member. */
const preview = (harness: Harness, script: string, output?: 'voice' | 'file' | 'voice-message') =>
  previewScene(harness, GUILD, script, output);

const press = (harness: Harness, shown: Preview, customId: string | undefined) =>
  pressSceneButton(harness, GUILD, shown, customId);

const ttsSince = (harness: Harness, before: number) =>
  harness.sandbox.requests.slice(before).filter((r) => r.endpoint === 'tts' || r.endpoint === 'emotion-tts');

/** A posted WAV's samples (16-bit PCM) and rate. */
function wavSamples(data: Buffer): { samples: Float32Array; rate: number } {
  const parsed = parseWavHeader(new Uint8Array(data));
  if (!('header' in parsed)) throw new Error('not a whole WAV');
  const { dataOffset, format } = parsed.header;
  const frames = Math.floor((data.length - dataOffset) / format.blockAlign);
  const samples = new Float32Array(frames);
  for (let i = 0; i < frames; i++) samples[i] = data.readInt16LE(dataOffset + i * format.blockAlign) / 32768;
  return { samples, rate: format.sampleRate };
}

/** Where sound starts after silence, in seconds: each run of 10 ms blocks above -50 dBFS after at least 100 ms below. */
function onsets(samples: Float32Array, rate: number): number[] {
  const block = Math.round(rate / 100);
  const found: number[] = [];
  let quietBlocks = 10;
  for (let start = 0; start + block <= samples.length; start += block) {
    let sum = 0;
    for (let i = start; i < start + block; i++) sum += (samples[i] ?? 0) ** 2;
    const loud = Math.sqrt(sum / block) > 10 ** (-50 / 20);
    if (loud && quietBlocks >= 10) found.push(start / rate);
    quietBlocks = loud ? 0 : quietBlocks + 1;
  }
  return found;
}

describe('/scene in a voice channel', () => {
  it('speaks each line in its own voice, in order, the first heard before the last line is requested', async () => {
    const lines = [
      'Ann: Good morning, everyone here.',
      'Ben: Morning to you, Ann.',
      'Kei: And a good morning from me.',
    ];
    const shown = await preview(h, [CAST, ...lines].join('\n'));
    expect(shown.shown.content).toContain('3 lines, 3 speakers');
    expect(shown.shown.content).toContain(`**Ann** \`${VOICES.Ann}\``);
    const before = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    // Slow enough that a later line's request is visibly later than the first sound.
    h.sandbox.setPacing({ realtimeFactor: 1, chunkBytes: 4800 });
    try {
      const lastRequestedWhenFirstHeard = h.discord
        .waitForPacket(GUILD, (packet) => !packet.silence, 20_000)
        .then(() => ttsSince(h, before).some((r) => r.text === 'And a good morning from me.'));
      const pressed = await press(h, shown, shown.confirm);
      const done = await pressed.waitFor((r) => (r.content ?? '').startsWith('🎬 Played'), 30_000);
      expect(done.content).toMatch(/Played the scene in <#\d+>: \d+\.\d s\./);
      expect(await lastRequestedWhenFirstHeard).toBe(false);
    } finally {
      h.sandbox.setPacing({ realtimeFactor: 0 });
    }
    const heard = await h.discord.waitForAudio(GUILD, { minSeconds: 1 });
    const pitches = linePitches(h, heard, lines);
    const expected = [VOICES.Ann, VOICES.Ben, VOICES.Kei].map((voice) => h.sandbox.voicePitchHz(voice) ?? -1);
    for (const [i, pitch] of pitches.entries()) expect(Math.abs(pitch - (expected[i] ?? 0)), lines[i]).toBeLessThan(4);
    expect(ttsSince(h, before).map((r) => r.voice)).toEqual([VOICES.Ann, VOICES.Ben, VOICES.Kei]);
  });

  it('/stop mid-scene records what the service billed (and a line closed before its answer), and requests nothing after', async () => {
    const lines = Array.from(
      { length: 6 },
      (_, i) => `${i % 2 === 0 ? 'Ann' : 'Ben'}: This is line number ${i + 1} of the stopped scene.`,
    );
    const shown = await preview(h, [CAST, ...lines].join('\n'));
    const spentBefore = await spentShown(h);
    const billedBefore = h.sandbox.charactersBilled();
    const before = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    h.sandbox.setPacing({ realtimeFactor: 1, chunkBytes: 4800 });
    try {
      const heard = h.discord.waitForPacket(GUILD, (packet) => !packet.silence, 20_000);
      const pressed = await press(h, shown, shown.confirm);
      await heard;
      await runCommand(h, { guildId: GUILD, userId: ALICE, name: 'stop' });
      const stopped = await pressed.waitFor((r) => (r.content ?? '').startsWith('The scene was stopped'), 60_000);
      expect(stopped.content).toMatch(/after \d+\.\d s/);
    } finally {
      h.sandbox.setPacing({ realtimeFactor: 0 });
    }
    const requested = ttsSince(h, before).length;
    expect(requested).toBeGreaterThan(0);
    expect(requested).toBeLessThan(lines.length);
    // A line asked for ahead may still be on its way to the service, or there uncharged, when /stop is answered: what
    // the service billed is read once it has answered everything SayBot sent, and SayBot's books have closed it all.
    await booksSettled(h);
    const billed = h.sandbox.charactersBilled() - billedBefore;
    expect(billed).toBeGreaterThan(0);
    // A line SayBot closed before the service answered it was billed nothing, and stays on the books as it may have
    // been charged (docs/architecture.md, Money): exactly those lines over what was billed.
    const closedUnanswered = ttsSince(h, before)
      .filter((r) => r.outcome === 'client-aborted' && r.status === undefined)
      .reduce((sum, r) => sum + countCharacters(r.text ?? ''), 0);
    expect((await spentShown(h)) - spentBefore).toBe(billed + closedUnanswered);
  });
});

describe('/stop mid-scene, at each instant of the next line', { timeout: 120_000 }, () => {
  const FIRST = 'The first line plays while the next one is asked for.';
  const SECOND = 'The second line, where the stop comes.';
  const script = [CAST, `Ann: ${FIRST}`, `Ben: ${SECOND}`, 'Ann: A third line.', 'Ben: And a fourth.'].join('\n');

  /** The scene confirmed, and the handle of its reply; the first line sure to be answered in full. */
  async function playScene(harness: Harness, second?: Fault): Promise<InteractionHandle> {
    // The first line's request meets a fault that changes nothing, so that `second` is the second line's.
    if (second)
      for (const fault of [{ kind: 'slow-headers', headersDelayMs: 0 } as const, second])
        harness.sandbox.injectFault({ ...fault, endpoint: 'tts' });
    const shown = await preview(harness, script);
    return press(harness, shown, shown.confirm);
  }

  /** /stop, answered, and the scene's reply saying it stopped: what was requested by then. */
  async function stopScene(harness: Harness, pressed: InteractionHandle): Promise<string[]> {
    await runCommand(harness, { guildId: GUILD, userId: ALICE, name: 'stop' });
    await pressed.waitFor((r) => (r.content ?? '').startsWith('The scene was stopped'), 60_000);
    return requestedTexts(harness);
  }

  const requestedTexts = (harness: Harness) => ttsSince(harness, 0).map((r) => r.text ?? '');
  const outcomeOf = (harness: Harness, text: string) => ttsSince(harness, 0).find((r) => r.text === text)?.outcome;

  it('before its request left (written down, not sent): it never leaves, and /usage shows what was billed', async () => {
    const gate = heldWriteAhead(countCharacters(SECOND));
    const s = await harnessFor({ config: { voiceIdleTimeoutMs: 60_000 }, env: HOLD_DEADLINE, wrapStore: gate.wrap });
    const pressed = await playScene(s);
    await gate.reached;
    expect(await stopScene(s, pressed)).toEqual([FIRST]);
    gate.release();
    // Either SayBot takes the spend it wrote down back (nothing sent), or the request reaches the service.
    await until(async () => gate.tookBack() || requestedTexts(s).includes(SECOND));
    expect(requestedTexts(s)).toEqual([FIRST]);
    await booksSettled(s);
    expect(s.sandbox.charactersBilled()).toBe(countCharacters(FIRST));
    expect(await spentShown(s)).toBe(s.sandbox.charactersBilled());
  });

  it('at the service, not yet charged: closed, so billed nothing for it; on the books as it may have been charged', async () => {
    const s = await harnessFor({ config: { voiceIdleTimeoutMs: 60_000 } });
    const pressed = await playScene(s, { kind: 'hold-before-charge' });
    await until(async () => outcomeOf(s, SECOND) === 'waiting');
    expect(await stopScene(s, pressed)).toEqual([FIRST, SECOND]);
    // Nobody waits for it any more and the service has not answered: SayBot closes the connection.
    await until(async () => outcomeOf(s, SECOND) === 'client-aborted');
    s.sandbox.resumePaused();
    await booksSettled(s);
    expect(requestedTexts(s)).toEqual([FIRST, SECOND]);
    expect(s.sandbox.charactersBilled()).toBe(countCharacters(FIRST));
    // Whether the service charged it an instant before the close cannot be known: the books keep it, over what was
    // billed by that line, never under (docs/architecture.md, Money).
    expect(await spentShown(s)).toBe(s.sandbox.charactersBilled() + countCharacters(SECOND));
  });

  for (const [instant, fault, outcome, after] of [
    ['charged, its answer held at the service: closed', { kind: 'hold-after-charge' }, 'held', 'client-aborted'],
    ['its audio streaming: read to its end', { kind: 'pause-after', bytes: 4800 }, 'paused', undefined],
  ] as const) {
    it(`${instant}, charged in full, on the books exactly as billed, and nothing asked for after`, async () => {
      const s = await harnessFor({ config: { voiceIdleTimeoutMs: 60_000 } });
      const pressed = await playScene(s, fault);
      await until(async () => outcomeOf(s, SECOND) === outcome);
      const atStop = await stopScene(s, pressed);
      expect(atStop).toEqual([FIRST, SECOND]);
      if (after !== undefined) await until(async () => outcomeOf(s, SECOND) === after);
      s.sandbox.resumePaused();
      await booksSettled(s);
      expect(requestedTexts(s)).toEqual(atStop);
      expect(s.sandbox.charactersBilled()).toBe(countCharacters(FIRST) + countCharacters(SECOND));
      expect(await spentShown(s)).toBe(s.sandbox.charactersBilled());
    });
  }
});

describe('/scene as a file', () => {
  it('posts one WAV under a line naming the member, and an .srt whose starts match the audio within 50 ms', async () => {
    const lines = [
      'Ann: The file starts here.',
      '(Ben looks up.)',
      'Ben: And then I answer.',
      '[pause 1s]',
      'Kei: The end.',
    ];
    const shown = await preview(h, [CAST, ...lines].join('\n'), 'file');
    expect(shown.shown.content).toContain('posted as a file with subtitles');
    const pressed = await press(h, shown, shown.confirm);
    const posted = await pressed.waitFor((r) => r.kind === 'follow-up' && r.files.length === 2, 30_000);
    expect(posted.content).toMatch(new RegExp(`^🎬 <@${ALICE}>'s scene: 3 voices, \\d+\\.\\d s$`));
    expect(posted.mentioned).toEqual({ users: [], roles: [], everyone: false });
    const wav = posted.files.find((file) => file.name.endsWith('.wav'));
    const srt = posted.files.find((file) => file.name.endsWith('.srt'));
    if (!wav || !srt) throw new Error('a WAV and an .srt were expected');
    const cues = parseSrtTimes(srt.data.toString('utf8'));
    expect(cues.map((cue) => cue.speaker)).toEqual(['Ann', 'Ben', 'Kei']);
    const { samples, rate } = wavSamples(wav.data);
    const starts = onsets(samples, rate);
    expect(starts).toHaveLength(3);
    for (const [i, cue] of cues.entries()) expect(Math.abs(cue.start - (starts[i] ?? -1)) * 1000).toBeLessThan(50);
    // The [pause 1s] is heard: Kei starts a second (and the default gap) after Ben ends.
    expect((cues[2]?.start ?? 0) - (cues[1]?.end ?? 0)).toBeGreaterThan(1.3);
    await pressed.waitFor((r) => (r.content ?? '').startsWith('🎬 Posted the scene'), 10_000);
  });

  it('pays again only for the line that changed: one paid request the second time', async () => {
    const first = [
      'Ann: A line that stays the same.',
      'Ben: Another line that stays.',
      'Kei: The line that will change.',
    ];
    await pressAndPost(await preview(h, [CAST, ...first].join('\n'), 'file'));
    const second = [...first.slice(0, 2), 'Kei: The line that has changed now.'];
    const shown = await preview(h, [CAST, ...second].join('\n'), 'file');
    expect(shown.shown.content).toContain('2 of 3 lines already made (free)');
    const before = h.sandbox.requests.length;
    await pressAndPost(shown);
    expect(ttsSince(h, before).map((r) => r.text)).toEqual(['The line that has changed now.']);
  });

  it('saved with /scene save from a .txt, /scene play replays it from the cache at no cost', async () => {
    const script = [CAST, 'Ann: Saved and played again.', 'Ben: From the cache the second time.'].join('\n');
    const saved = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE,
      name: 'scene',
      subcommand: 'save',
      options: {
        name: 'Morning',
        script: { type: 11, value: h.discord.hostAttachment(Buffer.from(script), 'morning.txt', 'text/plain').id },
      },
    });
    expect(saved.content).toBe('Saved the scene **Morning** (2 lines). Play it with `/scene play name:Morning`.');
    for (const round of [1, 2]) {
      const played = await h.discord.command({
        guildId: GUILD,
        userId: ALICE,
        name: 'scene',
        options: [
          {
            name: 'play',
            type: 1,
            options: [
              { name: 'name', value: 'morning' },
              { name: 'output', value: 'file' },
            ],
          },
        ],
      });
      const shown = await played.waitFor((r) => (r.content ?? '').includes('**Scene**'), 60_000);
      if (round === 2) expect(shown.content).toContain('nothing to pay');
      const before = h.sandbox.requests.length;
      const rows = (shown.message?.components ?? []) as Array<{ components: Array<{ custom_id: string }> }>;
      const confirm = rows.flatMap((row) => row.components).find((b) => b.custom_id.startsWith('scene:go:'));
      await pressAndPost({
        shown,
        messageId: String(shown.message?.id),
        confirm: confirm?.custom_id,
        cancel: undefined,
      });
      expect(ttsSince(h, before)).toHaveLength(round === 1 ? 2 : 0);
    }
  });
});

// A harness of its own each: the free voice's thread sets eSpeak NG up for its first line, at ten steps nicer than the
// processes beside it (tens of seconds on a host kept busy): the waits are bounds, not figures.
describe('/scene with the free voice', { timeout: 150_000 }, () => {
  it('says which lines the free voice spoke when the service fails (FREE_VOICE=on), bills nothing, and /usage counts them', async () => {
    const on = await harnessFor({ env: { FREE_VOICE: 'on' } });
    const shown = await preview(on, [CAST, 'Ann: The service is down.', 'Ben: And still we speak.'].join('\n'), 'file');
    on.sandbox.injectFault({
      kind: 'service-error',
      status: 503,
      message: 'overloaded',
      times: Infinity,
    });
    const billed = on.sandbox.charactersBilled();
    const pressed = await press(on, shown, shown.confirm);
    const done = await pressed.waitFor((r) => (r.content ?? '').startsWith('🎬 Posted the scene'), 90_000);
    expect(done.content).toContain('Some lines were spoken by the free voice: the voice service is not answering.');
    expect(on.sandbox.charactersBilled()).toBe(billed);
    on.sandbox.clearFaults();
    const usage = await runCommand(on, { guildId: GUILD, userId: ALICE, name: 'usage' });
    // Each of its two lines was spoken in place of the paid voice (bb7: counted once an order).
    expect(usage.content).toContain(
      'Lines spoken by the free voice this month: 2, at no charge (2 in place of the paid voice).',
    );
  });

  it('counts a line in a free voice, never made, as a line to make, not as one already made', async () => {
    const on = await harnessFor({ env: { FREE_VOICE: 'chosen' } });
    const script = ['cast: Ann = voice-b-en-f-01, Ben = free-en-m', 'Ann: A paid line.', 'Ben: A free line.'].join(
      '\n',
    );
    const shown = await preview(on, script, 'file');
    expect(shown.shown.content).toContain(`**${'A paid line.'.length}** characters to pay; 0 of 2 lines already made`);
  });

  it('counts each line cast in a free voice for /usage, at no charge', async () => {
    const on = await harnessFor({ env: { FREE_VOICE: 'chosen' } });
    const script = ['cast: Ann = free-en-f, Ben = free-en-m', 'Ann: Free of charge.', 'Ben: Free as well.'].join('\n');
    const shown = await preview(on, script, 'file');
    expect(shown.shown.content).toContain('nothing to pay');
    const billed = on.sandbox.charactersBilled();
    await (
      await press(on, shown, shown.confirm)
    ).waitFor((r) => (r.content ?? '').startsWith('🎬 Posted the scene'), 90_000);
    expect(on.sandbox.charactersBilled()).toBe(billed);
    const usage = await runCommand(on, { guildId: GUILD, userId: ALICE, name: 'usage' });
    expect(usage.content).toContain(
      'Lines spoken by the free voice this month: 2, at no charge (0 in place of the paid voice).',
    );
  });
});

describe('/scene before paying', () => {
  it('unconfirmed, replaced or cancelled, requests nothing', async () => {
    const before = h.sandbox.requests.length;
    const first = await preview(h, [CAST, 'Ann: Never confirmed.', 'Ben: Not a word is paid.'].join('\n'));
    expect(first.shown.content).toMatch(/\*\*\d+\*\* characters to pay/);
    expect(first.confirm).toBeDefined();
    // A second preview replaces the first: its "Play it" finds nothing waiting.
    const second = await preview(h, [CAST, 'Ann: Replaced, then cancelled.'].join('\n'));
    const late = await press(h, first, first.confirm);
    expect((await late.waitFor((r) => r.content !== undefined)).content).toContain('no longer waiting');
    const cancelled = await press(h, second, second.cancel);
    const answer = await cancelled.waitFor((r) => r.content !== undefined);
    expect(answer.content).toBe('Scene cancelled. Nothing was charged.');
    // The preview is the answer now, without its buttons.
    expect(answer.message?.components ?? []).toEqual([]);
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('refused by the member’s budget: the preview says so, offers no "Play it", and nothing is requested', async () => {
    const small = await harnessFor({ env: { BUDGET_MEMBER_DAILY_CHARS: '30' } });
    const shown = await preview(
      small,
      [CAST, 'Ann: This scene costs more than thirty characters.', 'Ben: So it is refused.'].join('\n'),
    );
    expect(shown.shown.content).toContain('Your budget today leaves 30 of 30 characters.');
    expect(shown.shown.content).toContain('more than a budget leaves');
    expect(shown.confirm).toBeUndefined();
    expect(small.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(0);
  });

  it('refused at "Play it" by a budget spent since the preview: told why, nothing requested, nothing held', async () => {
    const small = await harnessFor({ env: { BUDGET_MEMBER_DAILY_CHARS: '60' } });
    const shown = await preview(small, [CAST, 'Ann: Twenty-eight characters, no.', 'Ben: And a few more.'].join('\n'));
    expect(shown.confirm).toBeDefined();
    // Meanwhile the member spends most of their day elsewhere.
    const said = await runCommand(small, {
      guildId: GUILD,
      userId: ALICE,
      name: 'say',
      options: { text: 'Spending forty of sixty characters.', output: 'file' },
    });
    expect(said.content).toMatch(/^Here is/);
    const before = small.sandbox.requests.length;
    const pressed = await press(small, shown, shown.confirm);
    const refused = await pressed.waitFor((r) => (r.content ?? '').startsWith('Your daily budget'), 60_000);
    expect(refused.content).toContain('you used 35 today and this needs 43');
    expect(small.sandbox.requests.length).toBe(before);
    // Nothing is held for it: what is left is still spendable.
    const after = await runCommand(small, {
      guildId: GUILD,
      userId: ALICE,
      name: 'say',
      options: { text: 'Still fine.', output: 'file' },
    });
    expect(after.content).toMatch(/^Here is/);
  });

  it("previews count as free work against the member's free-request rate: past it, a clear refusal", async () => {
    const rationed = await harnessFor({ env: { BUDGET_MEMBER_FREE_PER_MINUTE: '1' } });
    const script = [CAST, 'Ann: A preview is free work.'].join('\n');
    expect((await preview(rationed, script)).confirm).toBeDefined();
    const second = await preview(rationed, script);
    expect(second.shown.content).toMatch(
      /^You asked within a minute for 1 thing that costs no characters, .* scene previews/,
    );
    expect(second.confirm).toBeUndefined();
    expect(rationed.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(0);
  });

  it('a script it cannot read gets a private answer naming the line, and nothing is requested', async () => {
    const before = h.sandbox.requests.length;
    const shown = await preview(h, 'Ann: Fine.\n\nthis line has no speaker\n');
    expect(shown.shown.content).toContain('Line 3 is not `Name: text`');
    expect(shown.confirm).toBeUndefined();
    expect(h.sandbox.requests.length).toBe(before);
  });
});

async function pressAndPost(shown: Preview): Promise<InteractionResponse> {
  const pressed = await press(h, shown, shown.confirm);
  return pressed.waitFor((r) => r.kind === 'follow-up' && r.files.length === 2, 30_000);
}

async function spentShown(harness: Harness): Promise<number> {
  const { content } = await runCommand(harness, { guildId: GUILD, userId: ALICE, name: 'usage' });
  return Number(/This server: ([\d,]+) characters spent/.exec(content)?.[1]?.replace(/,/g, '') ?? 'NaN');
}

/** Waits for `check`: a bound, not a figure (beside two busy processes a close is seen some seconds late). */
async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
