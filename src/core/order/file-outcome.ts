// An order rendered rather than played: a file, a voice message, or a mixed scene with its timeline.
import type { Logger } from '../log.ts';
import type { AudioJobOwner } from '../audio/jobs/audio-thread/audio-thread.ts';
import {
  fileAsVoiceMessage,
  orderOwner,
  partsFile,
  partsVoiceMessage,
  type RenderedFile,
  type PartCheck,
} from './clips.ts';
import { SpeechInputError } from '../order-errors.ts';
import type { Order, SpeechOutcome } from './order.ts';
import { sceneFile } from './scene-file.ts';
import type { PartSource } from '../sourcing/part-source.ts';
import type { SceneTimeline } from './scene-types.ts';

/** Rendered parts as the file to post; over `sizeLimit`, a voice message (fits as Opus), not an upload error. */
export async function fileOrVoiceMessage(
  rendered: { files: RenderedFile[]; seconds: number; timeline?: SceneTimeline; cutAt?: number },
  sizeLimit: number | undefined,
  encoding: PartSource['encoding'],
  log: Logger,
  owner: AudioJobOwner,
): Promise<SpeechOutcome> {
  const { files, seconds, timeline, cutAt } = rendered;
  const file = files[0];
  const timed = { ...(timeline === undefined ? {} : { timeline }), ...(cutAt === undefined ? {} : { cutAt }) };
  if (sizeLimit === undefined || files.length !== 1 || !file || file.data.length <= sizeLimit)
    return { kind: 'files', files, seconds, ...timed };
  log.info(
    { code: 'file-too-large', format: file.format, bytes: file.data.length, limit: sizeLimit },
    'file over the upload limit: rendering a voice message instead',
  );
  const insteadOfFile = { format: file.format, bytes: file.data.length, limit: sizeLimit };
  const message = await fileAsVoiceMessage(file, encoding, owner);
  return { kind: 'voice-message', message, seconds: message.durationSecs, insteadOfFile, ...timed };
}

/** An order rendered whole (file, voice message, or voice without a player); a part-way file is told to the order. */
export async function rendered(
  source: PartSource,
  log: Logger,
  order: Order,
  allowed: PartCheck,
): Promise<SpeechOutcome> {
  const { target } = order;
  const sizeLimit = target.kind === 'file' ? target.sizeLimit : undefined;
  const owner = orderOwner(order);
  if (order.scene && target.kind !== 'voice') {
    const format = target.kind === 'file' ? (order.sceneFormat ?? 'wav') : 'wav';
    const mixed = await sceneFile(source, order.lines, order, allowed, format);
    if (target.kind === 'file') return fileOrVoiceMessage(mixed, sizeLimit, source.encoding, log, owner);
    const message = await fileAsVoiceMessage(mixed.files[0], source.encoding, owner);
    const cut = mixed.cutAt === undefined ? {} : { cutAt: mixed.cutAt };
    return { kind: 'voice-message', message, seconds: message.durationSecs, timeline: mixed.timeline, ...cut };
  }
  const [line] = order.lines;
  if (line === undefined) throw new SpeechInputError({ code: 'empty-text' });
  if (target.kind === 'voice-message') {
    const { message, restFailed } = await partsVoiceMessage(source, line.request, line.texts, order, allowed);
    if (restFailed !== undefined) order.partWay(restFailed);
    return { kind: 'voice-message', message, seconds: message.durationSecs };
  }
  const { restFailed, ...files } = await partsFile(source, line.request, line.texts, order, allowed);
  if (restFailed !== undefined) order.partWay(restFailed);
  return fileOrVoiceMessage(files, sizeLimit, source.encoding, log, owner);
}
