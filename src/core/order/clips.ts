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
import type { OpusSettings } from '../audio/codecs/opus-settings.ts';
import { createOpusPacketStream } from '../audio/playback.ts';
import type { Logger } from '../log.ts';
import type { PlaybackItem, PlaybackStatus } from '../voice/guild-player.ts';
import { renderVoiceMessage, type VoiceMessage } from '../voice-message/render.ts';
import type { PartSource } from '../sourcing/part-source.ts';
import type { SpeechAudio, FetchedPart, OrderAccount } from '../sourcing/order-account.ts';
import { leavesPaidParts } from '../quota/paid-part-way.ts';
import type { SpeechRequest } from '../settings/speech-request.ts';

/** An order as its parts are fetched: what the part source reads, and where fetches' findings go (order.ts learnt). */
export interface PartsOrder extends OrderAccount {
  learnt?(part: FetchedPart): void;
}

/** One part's audio for `order`; what its fetch learnt (a stand-in, a cut) is recorded before the audio goes on. */
export async function orderedPart(
  source: PartSource,
  request: SpeechRequest,
  text: string,
  signal: AbortSignal,
  order: PartsOrder,
): Promise<SpeechAudio> {
  const part = await source.fetchPart(request, text, signal, order);
  order.learnt?.(part);
  if ('failure' in part) throw part.failure;
  return part.audio;
}

/** One part as a clip of the guild's queue, with the hook the pipeline uses to learn when its first frame went out. */
export type PartClip = PlaybackItem & { started?: () => void };

/** SpeechPipeline's check before each part: throws what ends it (RightsRevokedError, a deleted voice's error). */
export type PartCheck = () => Promise<void>;

/** The part before a part of the same order in voice: when it is heard (its first frame out), and how it ended. */
export interface PartBefore {
  heard: Promise<void>;
  ended: Promise<PlaybackStatus>;
}

/** A part whose order ended before its turn (the part before it was refused, failed, skipped or stopped). */
export class OrderEndedError extends Error {
  constructor() {
    super('the order ended before this part: it is neither asked for nor heard');
    this.name = 'OrderEndedError';
  }
}

/**
 * One part as a clip for the guild's player. Its audio is requested at `prepare()` or at its turn at the latest;
 * `allowed` is asked before the request and before it plays, so a part dropped first is never paid. After another of
 * its order (`before`) it is asked for ahead only once that one is heard, and at its turn only if that one played
 * to its end: an order that ended at a part asks for nothing after it.
 */
export function partClip(
  source: PartSource,
  request: SpeechRequest,
  text: string,
  label: string,
  order: PartsOrder,
  log: Logger,
  allowed: PartCheck,
  before?: PartBefore,
): PartClip {
  const prefetch = new AbortController();
  const turn = Promise.withResolvers<void>();
  // Settled whatever happens, so a part dropped before either is not left waiting.
  turn.promise.catch(() => undefined);
  // Asked for ahead once the part before it is heard, or when its turn comes, whichever is first.
  const mayAsk = before === undefined ? undefined : Promise.race([before.heard, turn.promise]);
  // Let go before the part before it was heard: rejected with its turn and awaited by nobody, a normal end.
  mayAsk?.catch(() => undefined);
  let pending: Promise<SpeechAudio> | undefined;
  const start = () =>
    (pending ??= (mayAsk === undefined ? allowed() : mayAsk.then(() => allowed())).then(() => {
      // Let go (stop, skip, the rest of a dropped reply) while it was asked: nothing is requested.
      prefetch.signal.throwIfAborted();
      return orderedPart(source, request, text, prefetch.signal, order);
    }));
  const dispose = () => {
    prefetch.abort();
    turn.reject(new OrderEndedError());
    pending?.then((response) => response.body.destroy()).catch(() => undefined);
  };
  return {
    label,
    prepare: () => {
      // A prefetch that fails is reported when the clip is opened; until then nobody awaits it.
      start().catch(() => undefined);
    },
    dispose,
    open: async (signal: AbortSignal): Promise<Readable> => {
      if (before !== undefined && (await before.ended) !== 'played') {
        dispose();
        throw new OrderEndedError();
      }
      turn.resolve();
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

/**
 * The one place that says where a part's Opus packets come from: the stored packets of a cache hit or a flight that
 * has them, else the body encoded as it arrives (which the flight then caches). Used by partClip and voice messages.
 */
export function partPackets(audio: SpeechAudio, encoding: Readonly<OpusSettings>, signal?: AbortSignal): Readable {
  // Let go already: a stream made now would fail on the next tick before its reader listens, uncaught.
  if (signal?.aborted) {
    audio.body.destroy();
    throw signal.reason;
  }
  if (audio.packets) {
    audio.body.destroy();
    return audio.packets(signal);
  }
  return createOpusPacketStream(audio.body, audio.format, { signal, encoding });
}

/**
 * A request's parts read in turn and posted as ONE file: WAV or MP3 joined in the audio worker (joinPartsOffThread).
 * A format SayBot cannot join (FLAC, M4A, Ogg) stays one file a part. `restFailed`: a part after paid ones failed,
 * and the file holds those before it (src/core/quota/paid-part-way.ts leavesPaidParts).
 */
export async function partsFile(
  source: PartSource,
  request: SpeechRequest,
  texts: readonly string[],
  order: PartsOrder,
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
  const format = parts[0]?.format;
  if ((format === 'wav' || format === 'mp3') && parts.every((p) => p.format === format)) {
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

/** A part's bytes as read: in shared memory as they came, or in blocks of their own (../audio/workers/byte-blocks.ts). */
export interface PartPieces {
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
  order: PartsOrder,
  allowed: PartCheck,
): Promise<PartPieces> {
  await allowed();
  const signal = order.ended ?? new AbortController().signal;
  const response = await orderedPart(source, request, text, signal, order);
  try {
    return { format: response.format, bytes: await gather(response.body as AsyncIterable<Buffer>) };
  } catch (error) {
    // None of it delivered yet: an engine failing once its audio began is stood in for as one failing before it.
    const standIn = await source.standInAfter(request, text, error, signal, order);
    if (standIn === undefined) throw error;
    order.learnt?.(standIn);
    if ('failure' in standIn) throw standIn.failure;
    return { format: standIn.audio.format, bytes: await gather(standIn.audio.body as AsyncIterable<Buffer>) };
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
  order: PartsOrder,
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
