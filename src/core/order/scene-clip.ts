// A scene played in voice: its lines as ONE clip of the guild's queue, cut at the scene's cap of seconds as its mix is
// (MAX_SCENE_SECONDS), so a scene whose audio proves longer than its estimate never holds the channel past it.
import { Readable } from 'node:stream';
import { MAX_SCENE_SECONDS } from '../audio/effects/scene-mix.ts';
import { SILENCE_FRAME } from '../voice/rtp-sender.ts';

/** 20 ms Opus frames per second: a scene's pauses are whole frames of silence, and its cap is counted in frames. */
const FRAMES_PER_SECOND = 50;

/** One line of a scene in voice: after a pause (seconds), its parts, each with its estimated seconds. */
export interface SceneClipLine {
  pauseBefore: number;
  /** Each part's estimated seconds (estimateRequestSeconds), to request no part ahead that the cap may cut away. */
  estimates: readonly number[];
}

/** A part's least assumed overrun of its estimate when requesting ahead: a part cut at the cap is paid, unheard. */
const AHEAD_FACTOR = 2;

/** Where a scene in voice was cut: at `at` seconds, `lines` of its lines begun by then. */
export interface SceneCut {
  at: number;
  lines: number;
}

/** A scene's clip: its packets, and whether it was cut at its cap once it has played. */
export interface SceneClip {
  packets: Readable;
  cut(): SceneCut | undefined;
}

/**
 * A scene's lines as ONE clip of the guild's queue (/skip, /stop and the queue bounds see it whole): each pause as
 * silent frames, then its parts in turn. `fetch(part)` (parts numbered across lines) is asked for the first part at
 * once, and for each later one as the one before begins, when it surely ends before the cap (else at its turn). Past
 * `maxSeconds` of frames it ends there, nothing after it asked for, and `cut()` says so. A part asked for and never
 * played is let go when the clip ends.
 */
export function sceneClip(
  lines: readonly SceneClipLine[],
  fetch: (part: number) => Promise<Readable>,
  signal: AbortSignal,
  maxSeconds = MAX_SCENE_SECONDS,
): SceneClip {
  const items = lines.flatMap((line, lineIndex) =>
    line.estimates.map((estimate, index) => ({
      line: lineIndex,
      silentFrames: index === 0 ? Math.round(line.pauseBefore * FRAMES_PER_SECOND) : 0,
      estimatedFrames: estimate * FRAMES_PER_SECOND,
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
  const asked = (part: number): Promise<Readable> => {
    const pending = fetch(part);
    // Awaited at its turn, or let go with the clip.
    pending.catch(() => undefined);
    return pending;
  };
  /** The next part, asked for ahead of its turn; let go if the clip ends first. */
  let ahead: Promise<Readable> | undefined = items.length > 0 ? asked(0) : undefined;
  const release = () => {
    void ahead?.then((stream) => stream.destroy()).catch(() => undefined);
    ahead = undefined;
  };
  async function* packets(): AsyncGenerator<Buffer> {
    try {
      for (const [index, item] of items.entries()) {
        for (let frame = 0; frame < item.silentFrames; frame++) {
          if (!room()) return;
          frames += 1;
          yield SILENCE_FRAME;
        }
        estimated += item.silentFrames;
        // Stopped or skipped while a part ended quietly: nothing more is played, and nothing more is requested.
        signal.throwIfAborted();
        if (!room()) return;
        const pending = ahead ?? asked(index);
        ahead = undefined;
        const stream = await pending;
        try {
          signal.throwIfAborted();
          linesBegun = item.line + 1;
          // Requested ahead only when this one surely ends before the cap at the rate so far; else at its turn.
          const slower = Math.max(AHEAD_FACTOR, estimated > 0 ? (1.25 * frames) / estimated : 0);
          if (index + 1 < items.length && frames + item.estimatedFrames * slower < maxFrames) ahead = asked(index + 1);
          estimated += item.estimatedFrames;
          for await (const packet of stream as AsyncIterable<Buffer>) {
            // Leaving the loop destroys the part's stream: what it had not sent is never read.
            if (!room()) return;
            frames += 1;
            yield packet;
          }
        } finally {
          stream.destroy();
        }
      }
    } finally {
      release();
    }
  }
  const stream = Readable.from(packets(), { objectMode: true });
  // Destroyed before a packet was read, the generator never starts: the stream's close lets go instead.
  stream.once('close', release);
  return { packets: stream, cut: () => cut };
}
