// A scene played in voice: its lines as ONE clip of the guild's queue, cut at the scene's cap of seconds as its mix is
// (MAX_SCENE_SECONDS), so a scene whose audio proves longer than its estimate never holds the channel past it.
import { Readable } from 'node:stream';
import { MAX_SCENE_SECONDS } from '../audio/effects/scene-mix.ts';
import { SILENCE_FRAME } from '../voice/rtp-sender.ts';
import type { Logger } from '../log.ts';
import type { PartSource, SpeechAudio } from '../sourcing/part-source.ts';
import type { SpeechRequest } from '../settings/speech-request.ts';
import { orderedPart, partPackets, type PartCheck, type PartsOrder } from './clips.ts';

/** 20 ms Opus frames per second: a scene's pauses are whole frames of silence, and its cap is counted in frames. */
const FRAMES_PER_SECOND = 50;

/** One part of a scene: its audio requested at `prepare()` or when opened at the latest, and let go at `dispose()`. */
export interface ScenePart {
  readonly label: string;
  open(signal: AbortSignal): Promise<Readable>;
  prepare?(): void;
  dispose?(): void;
}

/**
 * One part of a scene in voice. `allowed` is asked before the request and before it plays, so a part dropped first
 * is never paid.
 */
export function scenePart(
  source: PartSource,
  request: SpeechRequest,
  text: string,
  label: string,
  order: PartsOrder,
  log: Logger,
  allowed: PartCheck,
): ScenePart {
  const prefetch = new AbortController();
  let pending: Promise<SpeechAudio> | undefined;
  const start = () =>
    (pending ??= allowed().then(() => {
      // Let go (stop, skip, the rest of a scene that ended) while it was asked: nothing is requested.
      prefetch.signal.throwIfAborted();
      return orderedPart(source, request, text, prefetch.signal, order);
    }));
  return {
    label,
    prepare: () => {
      // A prefetch that fails is reported when the part is opened; until then nobody awaits it.
      start().catch(() => undefined);
    },
    dispose: () => {
      prefetch.abort();
      pending?.then((response) => response.body.destroy()).catch(() => undefined);
    },
    open: async (signal: AbortSignal): Promise<Readable> => {
      // Stopped, skipped or muted while its audio still arrives: let go of (an engine's line is cut there).
      const onAbort = () => prefetch.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      const forget = () => signal.removeEventListener('abort', onAbort);
      try {
        const response = await start();
        try {
          // Fetched before a right was taken away or its voice was deleted: still not heard.
          await allowed();
        } catch (error) {
          response.body.destroy();
          throw error;
        }
        log.debug({ label, requestId: response.requestId, format: response.format }, 'audio response started');
        const packets = partPackets(response, source.encoding, signal);
        packets.once('close', forget);
        return packets;
      } catch (error) {
        forget();
        throw error;
      }
    },
  };
}

/** One line of a scene in voice: its parts' clips, after a pause (seconds). */
export interface SceneClipLine {
  pauseBefore: number;
  parts: readonly ScenePart[];
  /** Each part's estimated seconds (estimateRequestSeconds), to request no part ahead that the cap may cut away. */
  estimates?: readonly number[];
}

/** A part's least assumed overrun of its estimate when requesting ahead: a part cut at the cap is paid, unheard. */
const AHEAD_FACTOR = 2;

/** Where a scene in voice was cut: at `at` seconds, `lines` of its lines begun by then. */
export interface SceneCut {
  at: number;
  lines: number;
}

/** A scene's clip, which says whether it was cut at its cap once it has played. */
export type SceneClip = ScenePart & { cut(): SceneCut | undefined };

/**
 * A scene's lines as ONE clip of the guild's queue (/skip, /stop and the queue bounds see it whole): each pause as
 * silent frames, then its parts in turn, each requested as the one before starts. Past `maxSeconds` of frames it
 * ends there, nothing after it opened, and `cut()` says so.
 */
export function sceneClip(label: string, lines: readonly SceneClipLine[], maxSeconds = MAX_SCENE_SECONDS): SceneClip {
  const items = lines.flatMap((line, lineIndex) =>
    line.parts.map((part, index) => ({
      part,
      line: lineIndex,
      silentFrames: index === 0 ? Math.round(line.pauseBefore * FRAMES_PER_SECOND) : 0,
      estimatedFrames: (line.estimates?.[index] ?? 0) * FRAMES_PER_SECOND,
    })),
  );
  const maxFrames = Math.round(maxSeconds * FRAMES_PER_SECOND);
  let frames = 0;
  /** The estimate of what has played so far (pauses exact): how much longer than estimated this scene runs. */
  let estimated = 0;
  let linesBegun = 0;
  let cut: SceneCut | undefined;
  /** Whether one more frame fits under the cap; the first that does not marks the scene cut. */
  const room = (): boolean => {
    if (frames < maxFrames) return true;
    cut = { at: maxSeconds, lines: linesBegun };
    return false;
  };
  /** Items from here on were never opened: theirs to release if the scene ends early. */
  let unopened = 0;
  const release = () => {
    for (const item of items.slice(unopened)) item.part.dispose?.();
    unopened = items.length;
  };
  async function* packets(signal: AbortSignal): AsyncGenerator<Buffer> {
    try {
      for (const [index, item] of items.entries()) {
        for (let frame = 0; frame < item.silentFrames; frame++) {
          if (!room()) return;
          frames += 1;
          yield SILENCE_FRAME;
        }
        estimated += item.silentFrames;
        // Stopped or skipped while a part ended quietly: nothing more is opened, and nothing more is requested.
        signal.throwIfAborted();
        if (!room()) return;
        unopened = index + 1;
        const stream = await item.part.open(signal);
        signal.throwIfAborted();
        linesBegun = item.line + 1;
        // Requested ahead only when this one surely ends before the cap at the rate so far; else at its turn.
        const slower = Math.max(AHEAD_FACTOR, estimated > 0 ? (1.25 * frames) / estimated : 0);
        if (frames + item.estimatedFrames * slower < maxFrames) items[index + 1]?.part.prepare?.();
        estimated += item.estimatedFrames;
        for await (const packet of stream as AsyncIterable<Buffer>) {
          // Leaving the loop destroys the part's stream: what it had not sent is never read.
          if (!room()) return;
          frames += 1;
          yield packet;
        }
      }
    } finally {
      release();
    }
  }
  return {
    label,
    prepare: () => items[0]?.part.prepare?.(),
    dispose: release,
    open: (signal: AbortSignal) => {
      const stream = Readable.from(packets(signal), { objectMode: true });
      // Destroyed before a packet was read, the generator never starts: the stream's close releases the parts instead.
      stream.once('close', release);
      return Promise.resolve(stream);
    },
    cut: () => cut,
  };
}
