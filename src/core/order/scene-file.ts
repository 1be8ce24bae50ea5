// A scene as one file: every line's parts read in turn while the request may go on, then mixed in the audio worker
// (one rate, loudness evened, each line after its pause, a timeline). Past MAX_SCENE_SECONDS it is cut (`cutAt`) and
// nothing more is requested. Parts are never joined on the main thread.
import { UnsupportedAudioError } from '../audio/errors.ts';
import { mixSceneOffThread, probePartOffThread } from '../audio/jobs/audio-thread/audio-thread.ts';
import type { PartBytes } from '../audio/workers/byte-block-types.ts';
import { MAX_SCENE_SECONDS } from '../audio/effects/scene-mix.ts';
import type { EditableFormat } from '../audio/effects/effect-types.ts';
import { orderOwner, readPart, type RenderedFile, type PartCheck } from './clips.ts';
import type { PartSource } from '../sourcing/part-source.ts';
import type { OrderAccount } from '../sourcing/order-account.ts';
import type { SpokenLine } from './order.ts';
import type { SceneTimeline } from './scene-types.ts';

interface SceneFile {
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
  order: OrderAccount,
  allowed: PartCheck,
  format: EditableFormat,
): Promise<SceneFile> {
  // Each part's header length counts against MAX_SCENE_SECONDS as it comes, so far-too-long audio stops the scene
  // before more is paid; the mix cuts what was paid at the cap (an MP3's headers are inexact: the mix counts samples).
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
