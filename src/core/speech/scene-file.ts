// A scene as one file: every line's parts read whole, in order (each requested when the one before it has been
// read, and only while the request may still go on), then mixed in the audio worker into one recording: one sample
// rate, loudness evened out between lines, each line after its pause, and when each line is heard.
import { UnsupportedAudioError } from '../audio/errors.ts';
import { mixSceneOffThread } from '../audio/workers/audio-thread/audio-thread.ts';
import type { Charge } from '../quota/charge.ts';
import type { RenderedFile, StillAllowed } from './clips.ts';
import type { PartSource } from './part-source.ts';
import type { SpeechRequest } from './request.ts';
import type { SceneTimeline } from './scene-types.ts';

export interface SceneFileLine {
  request: SpeechRequest;
  texts: readonly string[];
  pauseBefore: number;
}

export interface SceneFile {
  file: RenderedFile;
  files: RenderedFile[];
  seconds: number;
  /** Each line's start and end in the file, seconds. */
  timeline: SceneTimeline;
}

export async function sceneFile(
  source: PartSource,
  lines: readonly SceneFileLine[],
  charge: Charge,
  allowed: StillAllowed,
  format: 'wav' | 'mp3',
): Promise<SceneFile> {
  const mixLines = [];
  for (const line of lines) {
    const parts: Uint8Array[] = [];
    for (const text of line.texts) {
      await allowed();
      const response = await source.fetch(line.request, text, new AbortController().signal, charge);
      if (response.format !== 'wav' && response.format !== 'mp3') {
        response.body.destroy();
        throw new UnsupportedAudioError(
          response.format,
          `a scene line came as ${response.format}: only WAV and MP3 mix`,
        );
      }
      parts.push(Buffer.concat(await response.body.toArray()));
    }
    mixLines.push({ parts, gapBefore: line.pauseBefore });
  }
  const mixed = await mixSceneOffThread({ lines: mixLines, format }, charge.context.guildId);
  const file: RenderedFile = {
    data: Buffer.from(mixed.data.buffer, mixed.data.byteOffset, mixed.data.byteLength),
    format,
  };
  return { file, files: [file], seconds: mixed.seconds, timeline: mixed.lines };
}
