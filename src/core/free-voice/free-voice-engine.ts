// The free voice, off the main thread: worker threads (espeak-worker.ts), each one job at a time with a few waiting
// (src/core/audio/workers/job-thread.ts), a time limit per job, a bound on the audio a job may make (a free line's,
// src/core/characters.ts) and on the jobs one server may have under way or waiting, so a flood of free lines never
// stalls another server's voice or grows without end. Two work classes (workClassOf, there), each its own threads:
// short lines and long ones (rationed per member), so another server's short line never waits behind a scene's long
// lines. eSpeak NG is an optional dependency: without it the free voice is unavailable and says so.
import { espeakVoice } from '../voice-catalogue/voices.ts';
import { availableParallelism } from 'node:os';
import { AudioBusyError, AudioTooLongError } from '../audio/errors.ts';
import { classedPools, workClassOf } from '../audio/workers/job-thread.ts';
import { estimateFreeLineSeconds, MAX_FREE_LINE_SECONDS } from '../characters.ts';
import { FREE_LINES_PER_GUILD } from '../audio/workers/fair-shares.ts';
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
