import { Readable } from 'node:stream';
import {
  type AudioJobOwner,
  joinPartsOffThread,
  voiceMessageOffThread,
  partFileOffThread,
} from '../audio/jobs/audio-thread/audio-thread.ts';
import type { PartBytes } from '../audio/workers/byte-block-types.ts';
import { gather } from '../audio/workers/byte-blocks.ts';
import type { AudioFormat } from '../audio/codecs/format.ts';
import type { EditableFormat } from '../audio/effects/effect-types.ts';
import type { OpusSettings } from '../audio/codecs/opus-settings.ts';
import { createOpusPacketStream, partPackets } from '../cache/audio-fill.ts';
import { renderVoiceMessage, type VoiceMessage } from '../voice-message/render.ts';
import { orderedPart, recorded, type PartSource } from '../sourcing/part-source.ts';
import type { SpeechAudio, OrderAccount } from '../sourcing/order-account.ts';
import { leavesPaidParts } from '../quota/money.ts';
import type { SpeechRequest } from '../settings/speech-request.ts';

/** SpeechPipeline's check before each part: throws what ends it (RightsRevokedError, a deleted voice's error). */
export type PartCheck = () => Promise<void>;

/**
 * A request's parts read in turn and posted as ONE file: WAV or MP3 joined in the audio worker, in the format asked for
 * (joinedFormat); one SayBot cannot join (FLAC, M4A, Ogg) stays one file a part. `restFailed`: a part after paid ones
 * failed, and the file holds those before it (money.ts leavesPaidParts).
 */
export async function partsFile(
  source: PartSource,
  request: SpeechRequest,
  texts: readonly string[],
  order: OrderAccount,
  allowed: PartCheck,
): Promise<{ files: RenderedFile[]; seconds: number; restFailed?: unknown }> {
  const parts: PartPieces[] = [];
  let restFailed: { error: unknown } | undefined;
  for (const text of texts) {
    try {
      parts.push(await readPart(source, request, text, order, allowed));
    } catch (error) {
      // The member gets what they paid for and is told why it stops there: paid audio is never left undelivered.
      if (parts.length === 0 || order.charge.paid <= 0 || !leavesPaidParts(error)) throw error;
      restFailed = { error };
      break;
    }
  }
  const rest = restFailed === undefined ? {} : { restFailed: restFailed.error };
  const format = joinedFormat(request, parts);
  if (format !== undefined) {
    const { data, seconds } = await joinPartsOffThread(
      parts.map((p) => p.bytes),
      format,
      orderOwner(order),
    );
    return { files: [{ data, format }], seconds, ...rest };
  }
  let seconds = 0;
  const files = [];
  for (const part of parts) {
    // A format SayBot cannot join (FLAC, M4A, Ogg from the service): posted as it came, made a file in the worker.
    const file = await partFileOffThread(part.bytes, part.format, orderOwner(order));
    seconds += file.seconds;
    files.push({ data: file.data, format: part.format });
  }
  return { files, seconds, ...rest };
}

/**
 * The one format `parts` are posted in, or undefined where they cannot be one file. MP3 asked for is MP3 whatever
 * voice spoke: the free voice and engines make WAV (a stand-in among paid MP3 parts too), encoded in the audio worker.
 * Else the parts' own, where they share WAV or MP3.
 */
function joinedFormat(request: SpeechRequest, parts: readonly PartPieces[]): EditableFormat | undefined {
  const formats = parts.map((p) => p.format);
  if (formats.length === 0 || !formats.every((f): f is EditableFormat => f === 'wav' || f === 'mp3')) return undefined;
  if (request.kind === 'tts' && request.format === 'mp3') return 'mp3';
  const [first] = formats;
  return formats.every((f) => f === first) ? first : undefined;
}

/** A part's bytes as read: in shared memory as they came, or in blocks of their own (../audio/workers/byte-blocks.ts). */
interface PartPieces {
  format: AudioFormat;
  bytes: PartBytes;
}

/**
 * One part read once `allowed` passes; let go if its render ended meanwhile. A body whole in shared memory is that
 * view; any other is copied as it arrives into blocks the audio worker joins, never joined on the main thread.
 */
export async function readPart(
  source: PartSource,
  request: SpeechRequest,
  text: string,
  order: OrderAccount,
  allowed: PartCheck,
): Promise<PartPieces> {
  await allowed();
  const signal = order.ended ?? new AbortController().signal;
  const response = await orderedPart(source, request, text, signal, order);
  try {
    return { format: response.format, bytes: await gather(response.body as AsyncIterable<Buffer>) };
  } catch (error) {
    // None of it delivered yet: an engine failing once its audio began is backed up as one failing before it.
    const standIn = await source.standInAfter(request, text, error, signal, order);
    if (standIn === undefined) throw error;
    const audio = recorded(standIn, request, order);
    return { format: audio.format, bytes: await gather(audio.body as AsyncIterable<Buffer>) };
  }
}

/** Whose a request's audio work is (its server's share, its member's ration): the ones its characters are charged to. */
export function orderOwner(order: OrderAccount): AudioJobOwner {
  const { context } = order.charge;
  return { guild: context.guildId, member: context.userId };
}

/** A file as posted. */
export interface RenderedFile {
  data: Buffer;
  format: AudioFormat;
}

/**
 * A file too large to post, or a scene's mix, as a voice message: WAV or MP3 encoded to Opus in the audio worker (a
 * scene of minutes is long work, not the voice threads') and written as one Ogg Opus. The file's bytes are moved to
 * the worker: read what you need first. Another format (Ogg) goes the player's path.
 */
export async function fileAsVoiceMessage(
  file: RenderedFile,
  encoding: Readonly<OpusSettings>,
  owner: AudioJobOwner,
): Promise<VoiceMessage> {
  if (file.format !== 'wav' && file.format !== 'mp3')
    return renderVoiceMessage([createOpusPacketStream(Readable.from([file.data]), file.format, { encoding })], {
      owner,
    });
  const { complexity, bitrate, celtOnly, channels } = encoding;
  const spec = { format: file.format, encoder: { complexity, bitrate, celtOnly, channels } };
  return voiceMessageOffThread(file.data, spec, owner);
}

/** Every part joined into one voice message, each requested once the one before is read; `restFailed` as partsFile. */
export async function partsVoiceMessage(
  source: PartSource,
  request: SpeechRequest,
  texts: readonly string[],
  order: OrderAccount,
  allowed: PartCheck,
): Promise<{ message: VoiceMessage; restFailed?: unknown }> {
  const signal = order.ended ?? new AbortController().signal;
  let restFailed: { error: unknown } | undefined;
  const message = await renderVoiceMessage(
    (async function* () {
      for (const [index, text] of texts.entries()) {
        await allowed();
        let audio: SpeechAudio;
        try {
          audio = await orderedPart(source, request, text, signal, order);
        } catch (error) {
          // As a file's (partsFile): the parts paid for before a later one failed are the voice message.
          if (index === 0 || order.charge.paid <= 0 || !leavesPaidParts(error)) throw error;
          restFailed = { error };
          return;
        }
        yield partPackets(audio, source.encoding);
      }
    })(),
    { owner: orderOwner(order) },
  );
  return { message, ...(restFailed === undefined ? {} : { restFailed: restFailed.error }) };
}
