// What Discord checks when a message is posted with IS_VOICE_MESSAGE (1 << 13): no content, exactly one audio
// attachment with `duration_secs` and `waveform`, and a file it can play (here: Ogg Opus whose pages and packets
// decode), sent by a bot allowed to (Send Voice Messages). The error codes are Discord's JSON error codes.
import opus from '@discordjs/opus';
import { PermissionFlagsBits } from 'discord.js';
import type { UploadedFile } from './body.ts';
import { apiError, asObject, type ApiError, type Json } from './api-error.ts';

export const IS_VOICE_MESSAGE = 1 << 13;
export const VoiceMessageError = {
  AdditionalContent: 50159, // Voice messages do not support additional content.
  SingleAudioAttachment: 50160, // Voice messages must have a single audio attachment.
  Metadata: 50161, // Voice messages must have supporting metadata.
  CannotEdit: 50162, // Voice messages cannot be edited.
  CannotSendHere: 50173, // Cannot send voice messages in this channel.
} as const;
const MAX_WAVEFORM_BYTES = 256;

/**
 * A voice message from a sender without Send Voice Messages (1 << 46) in the channel: 403 with 50173, "Cannot send
 * voice messages in this channel" (discord-api-docs #6082). Undefined for other messages and allowed senders.
 */
export function checkVoiceMessagePermission(data: Json, permissions: bigint): ApiError | undefined {
  const flags = typeof data.flags === 'number' ? data.flags : 0;
  if ((flags & IS_VOICE_MESSAGE) === 0 || (permissions & PermissionFlagsBits.SendVoiceMessages) !== 0n)
    return undefined;
  return apiError(403, VoiceMessageError.CannotSendHere, 'Cannot send voice messages in this channel');
}

/** Undefined when the body is not a voice message or is an acceptable one. */
export function checkVoiceMessage(data: Json, files: UploadedFile[], creating: boolean): ApiError | undefined {
  const flags = typeof data.flags === 'number' ? data.flags : 0;
  if ((flags & IS_VOICE_MESSAGE) === 0) return undefined;
  if (!creating) return apiError(400, VoiceMessageError.CannotEdit, 'Voice messages cannot be edited');
  const hasContent =
    (typeof data.content === 'string' && data.content.length > 0) ||
    (Array.isArray(data.embeds) && data.embeds.length > 0) ||
    data.poll !== undefined ||
    (Array.isArray(data.sticker_ids) && data.sticker_ids.length > 0) ||
    // A voice message carries no components either: its buttons have to go on another message.
    (Array.isArray(data.components) && data.components.length > 0);
  if (hasContent)
    return apiError(400, VoiceMessageError.AdditionalContent, 'Voice messages do not support additional content');
  const file = files[0];
  if (files.length !== 1 || file === undefined || !isAudio(file)) {
    return apiError(400, VoiceMessageError.SingleAudioAttachment, 'Voice messages must have a single audio attachment');
  }
  const listed = Array.isArray(data.attachments) ? data.attachments.map(asObject) : [];
  const meta = listed.find((a) => String(a.id) === String(file.index)) ?? listed[0];
  if (meta === undefined || !validMetadata(meta)) {
    return apiError(400, VoiceMessageError.Metadata, 'Voice messages must have supporting metadata');
  }
  if (!decodesAsOggOpus(file.data)) {
    return apiError(400, 50035, 'Invalid Form Body', {
      attachments: { _errors: [{ code: 'AUDIO_INVALID', message: 'Not a playable Ogg Opus file.' }] },
    });
  }
  return undefined;
}

function isAudio(file: UploadedFile): boolean {
  return (file.contentType ?? '').startsWith('audio/') || /\.(ogg|opus)$/iu.test(file.name);
}

function validMetadata(meta: Json): boolean {
  const duration = meta.duration_secs;
  if (typeof duration !== 'number' || !Number.isFinite(duration) || duration <= 0) return false;
  const waveform = meta.waveform;
  if (typeof waveform !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/u.test(waveform)) return false;
  const bytes = Buffer.from(waveform, 'base64').length;
  return bytes >= 1 && bytes <= MAX_WAVEFORM_BYTES;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Every page well formed with a right CRC, OpusHead first, and every audio packet decodes. */
export function decodesAsOggOpus(file: Buffer): boolean {
  const packets: Buffer[] = [];
  let pending: Buffer[] = [];
  let offset = 0;
  while (offset < file.length) {
    if (offset + 27 > file.length || file.toString('latin1', offset, offset + 4) !== 'OggS') return false;
    const segments = file.readUInt8(offset + 26);
    if (offset + 27 + segments > file.length) return false;
    const lacing = [...file.subarray(offset + 27, offset + 27 + segments)];
    const end = offset + 27 + segments + lacing.reduce((a, b) => a + b, 0);
    if (end > file.length) return false;
    const copy = Buffer.from(file.subarray(offset, end));
    const stored = copy.readUInt32LE(22);
    copy.writeUInt32LE(0, 22);
    let crc = 0;
    for (const b of copy) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ b) & 0xff] ?? 0)) >>> 0;
    if (crc !== stored) return false;
    let at = offset + 27 + segments;
    for (const value of lacing) {
      pending.push(file.subarray(at, at + value));
      at += value;
      if (value < 255) {
        packets.push(Buffer.concat(pending));
        pending = [];
      }
    }
    offset = end;
  }
  const head = packets[0];
  if (head?.toString('latin1', 0, 8) !== 'OpusHead' || packets[1]?.toString('latin1', 0, 8) !== 'OpusTags')
    return false;
  const channels = head.readUInt8(9);
  if (channels < 1 || channels > 2 || packets.length < 3) return false;
  const decoder = new opus.OpusEncoder(48000, channels);
  try {
    for (const packet of packets.slice(2)) decoder.decode(packet);
  } catch {
    return false;
  }
  return true;
}
