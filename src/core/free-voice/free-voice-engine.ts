// The free voice, off the main thread: worker threads (espeak-worker.ts), each one job at a time with a few waiting
// (src/core/audio/workers/job-thread.ts), a time limit per job, a bound on the audio a job may make and on the jobs one
// server may have under way or waiting, so a flood of free lines never stalls another server's voice or grows without
// end. Two work classes (workClassOf, there), each its own threads: short lines and long ones (rationed per member), so
// another server's short line never waits behind a scene's long lines. eSpeak NG is an optional dependency: without it
// the free voice is unavailable and says so.
import { espeakVoice } from '../voice-catalogue/voices.ts';
import { availableParallelism } from 'node:os';
import { AudioBusyError, AudioTooLongError } from '../audio/errors.ts';
import { classedPools, FREE_LINES_PER_GUILD, MAX_FREE_LINE_SECONDS, workClassOf } from '../audio/workers/job-thread.ts';
import type { EspeakJob, EspeakReply } from './espeak-protocol.ts';

/**
 * Threads speaking short free lines at once: one per spare core, at most two (the main thread keeps the voice clock).
 * Long lines have one thread of their own.
 */
export const FREE_VOICE_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
/** Lines waiting behind the one being spoken, per thread. */
export const MAX_WAITING_PER_THREAD = 8;
/** Long lines one server may have under way or waiting. */
export const MAX_LONG_FREE_LINES_PER_GUILD = 2;
/** Long lines one member may have under way or waiting (a scene's lines are spoken one after another). */
export const MAX_LONG_FREE_LINES_PER_MEMBER = 1;
/** One line (a part of at most a few hundred characters) takes well under a second; past this the thread is replaced. */
const JOB_TIMEOUT_MS = 15_000;
/**
 * A long line's limit: it runs at long work's lower priority (src/core/audio/workers/thread-priority.ts), so on a host
 * busy with other work it may wait for the CPU far longer than it runs (two seconds of eSpeak NG at most).
 */
const LONG_JOB_TIMEOUT_MS = 60_000;
const IDLE_MS = 60_000;

/** The most audio one line may make (a part's text is bounded by the request's split). */

/** The free voice cannot speak: eSpeak NG is not installed (`npm ci --omit=optional` leaves it out). */
export class FreeVoiceMissingError extends Error {
  constructor() {
    super('the free voice is unavailable: the optional package espeak-ng is not installed');
    this.name = 'FreeVoiceMissingError';
  }
}

/**
 * A free line failed for its own cause, so that the member reads what failed: 'stopped', eSpeak NG failed on the
 * line's text (a trap, out of memory, no audio, too long); 'timeout', it took longer than a line may. Never another
 * line's cause: a failing thread is replaced before it takes the next line.
 */
export class FreeVoiceFailedError extends Error {
  readonly reason: 'stopped' | 'timeout';

  constructor(reason: 'stopped' | 'timeout', message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'FreeVoiceFailedError';
    this.reason = reason;
  }
}

/**
 * Whether an optional package is installed, resolved and not loaded: eSpeak NG and kuromoji (the Japanese analyser,
 * its dictionary with it) are loaded in the worker threads only (./reading/japanese-analyser.ts for kuromoji).
 */
function installed(name: 'espeak-ng' | 'kuromoji'): boolean {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** Whether eSpeak NG is installed. */
export const freeVoiceInstalled = (): boolean => installed('espeak-ng');

/**
 * What free voices may do here, decided once from FREE_VOICE and eSpeak NG installed: members may choose its voices
 * (`chosen`); a free voice may speak for the paid one (`standsIn`: an engine's needs no eSpeak NG); it speaks (`espeak`).
 */
export type FreeVoiceRules = Readonly<Record<'chosen' | 'standsIn' | 'espeak', boolean>>;

export function freeVoiceRules(
  { chosen, fallback }: { chosen: boolean; fallback: boolean },
  on = freeVoiceInstalled(),
): FreeVoiceRules {
  return { chosen: chosen && on, standsIn: fallback, espeak: on && (chosen || fallback) };
}

const pools = classedPools<Omit<EspeakJob, 'id'>, EspeakReply>(
  {
    name: 'free voice',
    jobs: 'lines',
    worker: new URL('./espeak-worker.ts', import.meta.url),
    threads: FREE_VOICE_THREADS,
    maxWaitingPerThread: MAX_WAITING_PER_THREAD,
    timeoutMs: JOB_TIMEOUT_MS,
    idleMs: IDLE_MS,
    perOwner: FREE_LINES_PER_GUILD,
    // A crash or a timeout is the line's own (its thread is replaced before the next line); the rest is busy.
    unavailable: (reason, message, options) =>
      reason === 'crashed' || reason === 'timeout'
        ? new FreeVoiceFailedError(reason === 'timeout' ? 'timeout' : 'stopped', message, options)
        : new AudioBusyError(reason, message, options),
  },
  {
    threads: 1,
    perOwner: MAX_LONG_FREE_LINES_PER_GUILD,
    perMember: MAX_LONG_FREE_LINES_PER_MEMBER,
    timeoutMs: LONG_JOB_TIMEOUT_MS,
  },
);

/** The free voice as the owner console shows it: installed, its threads running now and their memory. */
export interface FreeVoiceState {
  installed: boolean;
  /** Threads running now (each holds eSpeak NG; an idle one ends after a minute). */
  threads: number;
  /** Their heap and external memory (eSpeak NG's WebAssembly, kuromoji's dictionary), bytes. */
  memoryBytes: number;
  japanese: { installed: boolean; loadedThreads: number };
}

export async function freeVoiceState(): Promise<FreeVoiceState> {
  const live = [...(await pools.short.liveThreads()), ...(await pools.long.liveThreads())];
  return {
    installed: freeVoiceInstalled(),
    threads: live.length,
    memoryBytes: live.reduce((sum, thread) => sum + thread.memoryBytes, 0),
    japanese: {
      installed: installed('kuromoji'),
      loadedThreads: live.filter(({ lastReply }) => lastReply?.ok === true && lastReply.japanese === true).length,
    },
  };
}

/** A free line's audio: a WAV file, and the cap (seconds) it was cut at when it proved longer than that. */
interface FreeLine {
  wav: Buffer;
  cutAt?: number;
}

/**
 * `text` spoken in the free voice `voiceId`, as a WAV file, for `guild` and its `member` ('' when none): its class by
 * the seconds of audio it will make (estimateFreeLineSeconds): past SHORT_WORK_SECONDS long work, in the member's
 * ration. Audio that proves longer than MAX_FREE_LINE_SECONDS is cut there (by the worker thread) and comes back with
 * `cutAt`. Rejects with
 * FreeVoiceMissingError without eSpeak NG, AudioBusyError when the pool (or this server's share) is full,
 * AudioTooLongError when its text is far past what MAX_FREE_LINE_SECONDS can hold, FreeVoiceFailedError when eSpeak
 * NG failed on this line or took too long.
 */
export async function speakFreeLine(text: string, voiceId: string, guild = '', member = ''): Promise<FreeLine> {
  const free = espeakVoice(voiceId);
  if (free === undefined) throw new Error(`${voiceId} is not a free voice`);
  if (!freeVoiceInstalled()) throw new FreeVoiceMissingError();
  const pool = pools[workClassOf({ seconds: estimateFreeLineSeconds(text, voiceId) })];
  const job = { text, voice: free.espeak, maxSeconds: MAX_FREE_LINE_SECONDS };
  const reply = await pool.run(job, [], guild, { member });
  if (!reply.ok)
    throw reply.tooLong === true
      ? new AudioTooLongError('free-line', MAX_FREE_LINE_SECONDS)
      : new FreeVoiceFailedError('stopped', `free voice: ${reply.message}`);
  const wav = Buffer.from(reply.wav);
  return reply.cutAt === undefined ? { wav } : { wav, cutAt: reply.cutAt };
}

/** speakFreeLine's WAV alone, for what needs no word of a cut (a sample, a bench). */
export async function speakFree(text: string, voiceId: string, guild = '', member = ''): Promise<Buffer> {
  return (await speakFreeLine(text, voiceId, guild, member)).wav;
}

// How long eSpeak NG takes to say a line, estimated from its characters: its class here, and the check of its 120 s
// a line (src/core/characters.ts). Its own rates, not the paid voices': eSpeak NG reads Korean and Chinese
// slower than they do, and alphabetic scripts faster, so the paid estimate let Korean lines through that proved longer
// than the cap's margin and refused English lines that would have fitted.

/**
 * Characters a second, as bench/free-voice-rate.ts measures them with the real engine (both variants, lines of
 * 15 to 45 s), set some 5% slower so that a line of that language errs long, well within the 10% margin. Each
 * script is read in its own voice (a line in several scripts is several runs, reading/read-line.ts): Hangul in
 * Korean's, kana in Japanese's, Han in Japanese's on a Japanese line and Chinese's elsewhere (the slower).
 */
const HANGUL_PER_SECOND = 5.5; // measured 5.75
const KANA_PER_SECOND = 6.5; // measured 6.9, kanji and kana together on Japanese lines
const HANZI_PER_SECOND = 3.5; // measured 3.76
/** Everything else (letters, spaces, punctuation) in the line's voice: measured en 18.5, es 17.8, fr 23.0, de 18.1. */
const OTHER_PER_SECOND: Record<string, number> = { en: 17.5, es: 17, fr: 21.5, de: 17 };
/** Other characters in a voice not measured for them (Korean's spaces, Japanese's punctuation): the paid rate. */
const OTHER_DEFAULT_PER_SECOND = 15;
/**
 * Seconds a digit takes: eSpeak NG reads a run of digits as the number it makes ("9876543.": "nine million eight
 * hundred ...", some 4.3 s), each digit some ten letters' time, whatever the run's length (1 to 20 digits measured:
 * en at most 0.61 s a digit, ko 0.62, ja 0.52; de 0.65, es 0.60, fr 0.47, zh 0.50), set some 5% slower. A round
 * number ("1000000": "one million", 0.8 s) takes far less, so it errs long, which the cap's margin wants.
 */
const DIGIT_SECONDS: Record<string, number> = { en: 0.65, ko: 0.65, ja: 0.55 };
/** A digit in a voice not measured for them: the slowest measured, and more. */
const DIGIT_DEFAULT_SECONDS = 0.7;

/**
 * Seconds a full-width sentence end (。！？) takes: eSpeak NG pauses there, which the rates above, measured on lines
 * of long sentences, hardly count. Measured: 'はい。' 0.61 s in free-ja-m, 0.31 s past its two kana; set some 5% more.
 */
const SENTENCE_END_SECONDS = 0.32;

const SENTENCE_END = /[。！？]/u;
const HANGUL = /\p{Script=Hangul}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;
const DIGIT = /\p{Nd}/u;

/** Seconds the free voice `voiceId` will take to say `text`, at eSpeak NG's measured rates. */
export function estimateFreeLineSeconds(text: string, voiceId: string): number {
  const language = espeakVoice(voiceId)?.language;
  const han = language === 'ja' ? KANA_PER_SECOND : HANZI_PER_SECOND;
  const other = OTHER_PER_SECOND[language ?? ''] ?? OTHER_DEFAULT_PER_SECOND;
  const digit = DIGIT_SECONDS[language ?? ''] ?? DIGIT_DEFAULT_SECONDS;
  let seconds = 0;
  for (const char of text.normalize('NFC')) {
    if (DIGIT.test(char)) seconds += digit;
    else if (SENTENCE_END.test(char)) seconds += SENTENCE_END_SECONDS;
    else if (HANGUL.test(char)) seconds += 1 / HANGUL_PER_SECOND;
    else if (KANA.test(char)) seconds += 1 / KANA_PER_SECOND;
    else if (HAN.test(char)) seconds += 1 / han;
    else seconds += 1 / other;
  }
  return seconds;
}
