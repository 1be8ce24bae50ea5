// A scene as one file: every line's parts read whole, in order (each requested when the one before it has been
// read, and only while the request may still go on), then mixed in the audio worker into one recording: one sample
// rate, loudness evened out between lines, each line after its pause, and when each line is heard.
import { UnsupportedAudioError } from '../audio/errors.ts';
import { mixSceneOffThread } from '../audio/workers/audio-thread/audio-thread.ts';
import { probeClip } from '../audio/analysis/clip-probe.ts';
import { MAX_SCENE_SECONDS } from '../audio/effects/scene-mix.ts';
import type { EditableFormat } from '../audio/effects/effect-types.ts';
import type { Charge } from '../quota/charge.ts';
import { readPart, type RenderedFile, type StillAllowed } from './clips.ts';
import type { PartSource } from './part-source.ts';
import type { SpeechRequest } from './request.ts';
import type { SceneTimeline } from './scene-types.ts';

export interface SceneFileLine {
  request: SpeechRequest;
  texts: readonly string[];
  pauseBefore: number;
}

export interface SceneFile {
  files: [RenderedFile];
  seconds: number;
  /** Each line's start and end in the file, seconds. */
  timeline: SceneTimeline;
}

export async function sceneFile(
  source: PartSource,
  lines: readonly SceneFileLine[],
  charge: Charge,
  allowed: StillAllowed,
  format: EditableFormat,
): Promise<SceneFile> {
  // Held on this thread until the mix: what the headers say each part lasts counts against MAX_SCENE_SECONDS as it
  // comes, so a service that sends far more audio than its text asks for stops the scene before more is held or
  // paid. (An MP3's headers tell no exact length; its bytes are few, and the mix counts its samples exactly.)
  let seconds = lines.reduce((sum, line) => sum + line.pauseBefore, 0);
  const mixLines = [];
  for (const line of lines) {
    const parts: Uint8Array[] = [];
    for (const text of line.texts) {
      const part = await readPart(source, line.request, text, charge, allowed);
      if (part.format !== 'wav' && part.format !== 'mp3')
        throw new UnsupportedAudioError(part.format, `a scene line came as ${part.format}: only WAV and MP3 mix`);
      const probe = probeClip(part.data, MAX_SCENE_SECONDS - seconds);
      if (probe.verdict === 'over')
        throw new RangeError(`a scene may last at most ${MAX_SCENE_SECONDS} s: its parts are longer`);
      seconds += probe.verdict === 'fits' ? (probe.seconds ?? 0) : 0;
      parts.push(part.data);
    }
    const volumeDb = line.request.kind === 'ready' ? undefined : line.request.effects?.volumeDb;
    mixLines.push({ parts, gapBefore: line.pauseBefore, ...(volumeDb ? { volumeDb } : {}) });
  }
  const { guildId: guild, userId: member } = charge.context;
  const mixed = await mixSceneOffThread({ lines: mixLines, format }, { guild, member });
  const file: RenderedFile = {
    data: Buffer.from(mixed.data.buffer, mixed.data.byteOffset, mixed.data.byteLength),
    format,
  };
  return { files: [file], seconds: mixed.seconds, timeline: mixed.lines };
}
