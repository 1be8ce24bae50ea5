// A scene as one file: every line's parts read whole, in order (each requested when the one before it has been
// read, and only while the request may still go on), then mixed in the audio worker into one recording: one sample
// rate, loudness evened out between lines, each line after its pause, and when each line is heard. Audio longer
// than MAX_SCENE_SECONDS is cut there, said so (`cutAt`), and nothing after it is requested. A part's bytes stay as
// they were read (shared memory, or blocks of the scene's own): measured and mixed in the audio worker, never joined
// on the main thread.
import { UnsupportedAudioError } from '../audio/errors.ts';
import { mixSceneOffThread, probePartOffThread } from '../audio/jobs/audio-thread/audio-thread.ts';
import type { PartBytes } from '../audio/workers/byte-block-types.ts';
import { MAX_SCENE_SECONDS } from '../audio/effects/scene-mix.ts';
import type { EditableFormat } from '../audio/effects/effect-types.ts';
import { orderOwner, readPart, type PartsOrder, type RenderedFile, type PartCheck } from './clips.ts';
import type { PartSource } from '../sourcing/part-source.ts';
import type { SpokenLine } from './order-types.ts';
import type { SceneTimeline } from './scene-types.ts';

export interface SceneFile {
  files: [RenderedFile];
  seconds: number;
  /** Each line's start and end in the file, seconds: only the lines heard when it was cut. */
  timeline: SceneTimeline;
  /** Its audio proved longer than MAX_SCENE_SECONDS (past the estimate's margin): it was cut there. */
  cutAt?: number;
}

export async function sceneFile(
  source: PartSource,
  lines: readonly SpokenLine[],
  order: PartsOrder,
  allowed: PartCheck,
  format: EditableFormat,
): Promise<SceneFile> {
  // Held until the mix: what the headers say each part lasts (read in the audio worker) counts against
  // MAX_SCENE_SECONDS as it comes, so audio far longer than its estimate stops the scene before more is requested or
  // paid. What was paid is kept: the mix cuts it at the cap. (An MP3's headers tell no exact length; the mix counts
  // its samples.)
  const owner = orderOwner(order);
  let seconds = 0;
  let over = false;
  const mixLines = [];
  for (const line of lines) {
    if (over) break;
    seconds += line.pauseBefore;
    const parts: PartBytes[] = [];
    for (const text of line.texts) {
      const part = await readPart(source, line.request, text, order, allowed);
      if (part.format !== 'wav' && part.format !== 'mp3')
        throw new UnsupportedAudioError(part.format, `a scene line came as ${part.format}: only WAV and MP3 mix`);
      parts.push(part.bytes);
      const probe = await probePartOffThread(part.bytes, Math.max(0, MAX_SCENE_SECONDS - seconds), owner);
      over = probe.verdict === 'over';
      if (over) break;
      seconds += probe.verdict === 'fits' ? (probe.seconds ?? 0) : 0;
    }
    const volumeDb = line.request.kind === 'ready' ? undefined : line.request.effects?.volumeDb;
    mixLines.push({ parts, gapBefore: line.pauseBefore, ...(volumeDb ? { volumeDb } : {}) });
  }
  const mixed = await mixSceneOffThread({ lines: mixLines, format }, owner);
  const file: RenderedFile = {
    data: Buffer.from(mixed.data.buffer, mixed.data.byteOffset, mixed.data.byteLength),
    format,
  };
  const cut = mixed.cut ? { cutAt: MAX_SCENE_SECONDS } : {};
  return { files: [file], seconds: mixed.seconds, timeline: mixed.lines, ...cut };
}
