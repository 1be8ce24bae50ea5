// The free voice's engine: eSpeak NG in worker threads, its words heard as speech, its bounds per server and in all.
import { ESPEAK_VOICES, espeakVoice, isFreeVoice } from '../../../src/core/voice-catalogue/voices.ts';
import { estimateFreeLineSeconds } from '../../../src/core/characters.ts';
import { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { analyseClip } from '../../../src/core/audio/analysis/clip.ts';
import { AudioBusyError } from '../../../src/core/audio/errors.ts';
import {
  FREE_VOICE_THREADS,
  FreeVoiceFailedError,
  MAX_LONG_FREE_LINES_PER_MEMBER,
  MAX_WAITING_PER_THREAD,
  freeVoiceInstalled,
  freeVoiceRules,
  speakFree,
} from '../../../src/core/free-voice/free-voice-engine.ts';
import { espeakText } from '../../../src/core/free-voice/reading/read-line.ts';
import { describeFailure } from '../../../src/features/speaking/failure-words.ts';
import { JobUnavailableError } from '../../../src/core/audio/errors.ts';
import { JobThread } from '../../../src/core/audio/workers/job-thread.ts';
import { SHORT_WORK_SECONDS } from '../../../src/core/audio/workers/job-thread.ts';
import { FREE_LINES_PER_GUILD } from '../../../src/core/audio/workers/fair-shares.ts';
import { onWork, type WorkEvent } from '../../../src/core/audio/workers/work-trace.ts';
import type { EspeakJob, EspeakReply } from '../../../src/core/free-voice/espeak-protocol.ts';
import { toneSamples } from '@saybot/voice-sandbox/synth.ts';
import { speechLikeness } from '../../support/speech-likeness.ts';

/** One thread of `worker`, answering eSpeak NG's jobs as the engine's pools do, without their bounds. */
const espeakThread = (worker: URL) =>
  new JobThread<Omit<EspeakJob, 'id'>, EspeakReply>({
    worker,
    maxWaiting: 8,
    timeoutMs: 15_000,
    idleMs: 10,
    unavailable: (reason, message) => new JobUnavailableError(reason, message),
  });

describe('what free voices may do here (freeVoiceRules): the one decision, from FREE_VOICE and eSpeak NG installed', () => {
  it.each([
    // FREE_VOICE=on, chosen, fallback, off (config.test.ts: what each sets), with eSpeak NG installed or not.
    [{ chosen: true, fallback: true }, true, { chosen: true, standsIn: true, espeak: true }],
    [{ chosen: true, fallback: false }, true, { chosen: true, standsIn: false, espeak: true }],
    [{ chosen: false, fallback: true }, true, { chosen: false, standsIn: true, espeak: true }],
    [{ chosen: false, fallback: false }, true, { chosen: false, standsIn: false, espeak: false }],
    // Not installed: nobody may choose eSpeak NG, nor does it speak; an engine's voice may still stand in.
    [{ chosen: true, fallback: true }, false, { chosen: false, standsIn: true, espeak: false }],
    [{ chosen: true, fallback: false }, false, { chosen: false, standsIn: false, espeak: false }],
  ])('%o, installed %s: %o', (setting, installed, rules) => {
    expect(freeVoiceRules(setting, installed)).toEqual(rules);
  });

  it('asks whether eSpeak NG is installed when not told', () => {
    expect(freeVoiceRules({ chosen: true, fallback: false }).chosen).toBe(freeVoiceInstalled());
  });
});

describe('the free voices', () => {
  it('are a female and a male voice per language, named free-<language>-<f|m>', () => {
    expect(ESPEAK_VOICES.length).toBeGreaterThanOrEqual(6);
    for (const free of ESPEAK_VOICES) expect(free.id).toMatch(new RegExp(`^free-${free.language}-(f|m)$`));
    expect(new Set(ESPEAK_VOICES.map((free) => free.id)).size).toBe(ESPEAK_VOICES.length);
    expect(espeakVoice('free-ko-f')?.espeak).toBe('ko+f2');
    expect(isFreeVoice('voice-b-en-f-01')).toBe(false);
  });
});

describe('the free voice engine', () => {
  it('is installed here (an optional dependency that `npm ci` installs)', () => {
    expect(freeVoiceInstalled()).toBe(true);
  });

  it('speaks words: a WAV whose loudness and hiss vary as speech does, unlike a steady tone', async () => {
    const wav = await speakFree('Hello there. This is the free voice, reading a sentence.', 'free-en-f', 'G1');
    const clip = await analyseClip(wav);
    expect(clip.sampleRate).toBe(22_050);
    expect(clip.durationSeconds).toBeGreaterThan(1.5);
    expect(clip.durationSeconds).toBeLessThan(8);
    const speech = speechLikeness(clip.samples!, clip.sampleRate);
    const tone = toneSamples({ pitchHz: 180, seconds: 2, amplitude: 0.5, sampleRate: 22_050 });
    const steady = speechLikeness(
      Float32Array.from(tone, (sample) => sample / 32768),
      22_050,
    );
    expect(speech.loudnessSpread).toBeGreaterThan(0.5);
    expect(speech.crossingSpread).toBeGreaterThan(0.3);
    expect(steady.loudnessSpread).toBeLessThan(0.2);
    expect(steady.crossingSpread).toBeLessThan(0.1);
  });

  it('reads a text that looks like an option as text (it is never an argument)', async () => {
    const wav = await speakFree('-w /etc/passwd --help', 'free-en-m', 'G1');
    expect((await analyseClip(wav)).durationSeconds).toBeGreaterThan(0.5);
  });

  it("fails at most its own line for text that traps eSpeak NG as phonemes, and another server's line at the same moment is spoken", async () => {
    // Read as phoneme input, this made eSpeak NG's WebAssembly trap after its job had answered, failing the next
    // job (another server's) as the worker died.
    const trap = `[[${'a::::::::'.repeat(220)}]]`;
    const lines = [
      speakFree(trap, 'free-en-f', 'TRAP'),
      speakFree('Another server, speaking at the same moment.', 'free-en-m', 'OTHER'),
      speakFree('And a third, right behind them.', 'free-ko-f', 'THIRD'),
    ].map((line) => line.then(analyseClip));
    const [own, other, third] = await Promise.allSettled(lines);
    if (own?.status === 'rejected') {
      expect(own.reason).toBeInstanceOf(FreeVoiceFailedError);
      expect(describeFailure(own.reason).message.key).toMatch(/^error\.freeVoice\./);
    }
    expect(other).toMatchObject({ status: 'fulfilled' });
    expect(third).toMatchObject({ status: 'fulfilled' });
    if (other?.status === 'fulfilled') expect(other.value.durationSeconds).toBeGreaterThan(0.5);
  });

  it("charges a trap inside eSpeak NG to its own job: the thread is replaced before the next, another server's", async () => {
    // eSpeak given the trap as phonemes (test/support/raw-espeak-worker.ts skips espeakText on purpose).
    const thread = espeakThread(new URL('../../support/raw-espeak-worker.ts', import.meta.url));
    const line = (text: string, owner: string) => thread.run({ text, voice: 'en-us', maxSeconds: 120 }, [], owner);
    const trapped = line(`[[${'a::::::::'.repeat(220)}]]`, 'TRAP');
    const next = line('The next line, from another server.', 'OTHER');
    expect(await trapped).toMatchObject({
      ok: false,
      retire: true,
      message: expect.stringMatching(/^eSpeak NG stopped on this line \(/),
    });
    const spoken = await next;
    expect(spoken.ok).toBe(true);
    if (spoken.ok) expect((await analyseClip(new Uint8Array(spoken.wav))).durationSeconds).toBeGreaterThan(0.5);
  });

  it('cuts a line whose audio proves longer than its maxSeconds at that cap, in its thread, and says so', async () => {
    const thread = espeakThread(new URL('../../../src/core/free-voice/espeak-worker.ts', import.meta.url));
    // Some 9 s of speech, short enough in characters (45) that no cap refuses it before eSpeak NG runs.
    const text = 'Numbers take long to say: 9876543, 1234567.';
    const whole = await thread.run({ text, voice: 'en-us', maxSeconds: 120 }, [], 'G1');
    const cut = await thread.run({ text, voice: 'en-us', maxSeconds: 3 }, [], 'G1');
    expect(whole).toMatchObject({ ok: true });
    expect(whole).not.toHaveProperty('cutAt');
    expect(cut).toMatchObject({ ok: true, cutAt: 3 });
    if (!whole.ok || !cut.ok) return;
    expect((await analyseClip(new Uint8Array(whole.wav))).durationSeconds).toBeGreaterThan(3);
    // Exactly the cap's samples (22,050 a second, 16-bit mono), sent in shared memory as every line is.
    expect(cut.wav).toBeInstanceOf(SharedArrayBuffer);
    expect((await analyseClip(new Uint8Array(cut.wav))).durationSeconds).toBeCloseTo(3, 3);
  });

  it("gives eSpeak NG a member's text only as text: no [[phonemes]], and SSML spoken as written", async () => {
    expect(espeakText('say [[h@loU]] now')).not.toMatch(/\[\[|\]\]/);
    // Read as SSML, the break would be ten seconds of silence.
    const wav = await speakFree('<speak>Hi<break time="10s"/>there</speak>', 'free-en-f', 'G1');
    expect((await analyseClip(wav)).durationSeconds).toBeLessThan(10);
  });

  it('speaks all of a line with a control character in it: eSpeak NG reads its text as a C string, ending at a NUL', async () => {
    const text = 'hello there, how are you today';
    const whole = await analyseClip(await speakFree(text, 'free-en-m', 'G1'));
    const withNul = await analyseClip(
      await speakFree(`\u0000${text.replace(' ', ' \u0000')}\u0007`, 'free-en-m', 'G1'),
    );
    expect(withNul.durationSeconds).toBeGreaterThan(whole.durationSeconds * 0.8);
  });

  it("gives another server's short line a thread while a scene's long line is under way, not a place behind it", async () => {
    const long = 'This is one long line of a scene, read slowly by the free voice. '.repeat(15);
    expect(estimateFreeLineSeconds(long, 'free-en-f')).toBeGreaterThan(SHORT_WORK_SECONDS);
    const events: string[] = [];
    const threads = new Map<string, number>();
    const original = Worker.prototype.postMessage;
    const post = vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (
      this: Worker,
      message: unknown,
      transfer?: Parameters<Worker['postMessage']>[1],
    ) {
      const text = (message as { text?: unknown } | null)?.text;
      if (text === long || text === 'A short line.') {
        events.push(`${text === long ? 'long' : 'short'} line given a thread`);
        threads.set(text === long ? 'long' : 'short', this.threadId);
      }
      original.call(this, message, transfer);
    });
    const scene = speakFree(long, 'free-en-f', 'SCENE', 'member').then(() => void events.push('long line spoken'));
    const other = speakFree('A short line.', 'free-en-m', 'OTHER', 'member').then(
      () => void events.push('short line spoken'),
    );
    await Promise.all([scene, other]).finally(() => post.mockRestore());
    // Order of events and threads, not time: each line was given a thread (which first is the pools' affair), the
    // short one a thread of its own while the long one was still under way (with one thread for every line, it was
    // given that thread only once the long one was spoken). Which of the two ends first is a matter of time: on a
    // host of one core, a thread started for the short line can take longer to load than the long line to render.
    expect(events.toSorted()).toEqual([
      'long line given a thread',
      'long line spoken',
      'short line given a thread',
      'short line spoken',
    ]);
    expect(events.indexOf('short line given a thread')).toBeLessThan(events.indexOf('long line spoken'));
    expect(threads.get('short')).not.toBe(threads.get('long'));
  });

  it("rations a member's long lines: a second at once is refused, another member's is spoken", async () => {
    const long = 'Another long line, which only one of at a time is spoken for each member. '.repeat(6);
    const first = speakFree(long, 'free-en-f', 'RATION', 'alice');
    const second = speakFree(long, 'free-en-f', 'RATION', 'alice').catch((error: unknown) => error);
    const bob = speakFree(long, 'free-en-m', 'RATION', 'bob');
    expect(await second).toMatchObject({ reason: 'member-busy', limit: MAX_LONG_FREE_LINES_PER_MEMBER });
    expect((await analyseClip(await first)).durationSeconds).toBeGreaterThan(5);
    expect((await analyseClip(await bob)).durationSeconds).toBeGreaterThan(5);
  });

  it("bounds a flood: one server's lines past its share are refused at once, and another server's line is spoken", async () => {
    const flood = Array.from({ length: FREE_LINES_PER_GUILD + 6 }, (_, i) =>
      speakFree(`Line number ${i} of a flood.`, 'free-en-f', 'FLOOD').then(
        () => 'spoken',
        (error: unknown) => (error instanceof AudioBusyError ? error.reason : 'other'),
      ),
    );
    const other = await speakFree('Another server, heard all the same.', 'free-ko-f', 'OTHER');
    expect((await analyseClip(other)).durationSeconds).toBeGreaterThan(0.5);
    const outcomes = await Promise.all(flood);
    expect(outcomes.filter((outcome) => outcome === 'spoken')).toHaveLength(FREE_LINES_PER_GUILD);
    expect(outcomes.filter((outcome) => outcome === 'owner-busy')).toHaveLength(6);
    expect(FREE_VOICE_THREADS * MAX_WAITING_PER_THREAD).toBeGreaterThanOrEqual(FREE_LINES_PER_GUILD);
  });

  it("starts a long line only once another server's short line, waiting or under way, has ended", async () => {
    const events: string[] = [];
    const stop = onWork((event: WorkEvent) => {
      const turn = event.owner === 'TURN-SHORT' || event.owner === 'TURN-LONG';
      // A thread's setup for its first line (setup, set-up) is the thread's own, in no turn.
      if (turn && (event.event === 'start' || event.event === 'end')) events.push(`${event.workClass} ${event.event}`);
    });
    try {
      const short = speakFree('A short line that goes first.', 'free-en-m', 'TURN-SHORT', 'member');
      const long = speakFree(
        'A long line of a scene, which waits its turn. '.repeat(20),
        'free-en-f',
        'TURN-LONG',
        'm',
      );
      await Promise.all([short, long]);
    } finally {
      stop();
    }
    expect(events).toEqual(['short start', 'short end', 'long start', 'long end']);
  });

  it("takes one server's flood through four front-ends in turn with another server's line: its line is next", async () => {
    const starts: string[] = [];
    const stop = onWork((event: WorkEvent) => {
      if (event.event === 'start' && (event.owner === 'FRONT-A' || event.owner === 'FRONT-B')) starts.push(event.owner);
    });
    try {
      // Four members of A at once, as /say, Speak, auto-read and a button would ask: A's share is under way or
      // waiting when B's one line comes.
      const flood = ['say', 'speak', 'autoread', 'button'].map((frontEnd) =>
        speakFree(`${frontEnd} says a free line.`, 'free-en-f', 'FRONT-A', frontEnd),
      );
      const other = speakFree('The other server, in its turn.', 'free-en-m', 'FRONT-B', 'member');
      await Promise.all([...flood, other]);
    } finally {
      stop();
    }
    // Order of events: B waits for no more than the A lines already under way, one per thread.
    expect(starts.indexOf('FRONT-B')).toBeLessThanOrEqual(FREE_VOICE_THREADS);
    expect(starts.filter((owner) => owner === 'FRONT-A')).toHaveLength(4);
  });
});
