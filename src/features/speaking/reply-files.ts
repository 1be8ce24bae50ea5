// The files a reply carries, named once: `saybot-<voice>.<format>` after the voice that spoke (a stand-in too).
import type { AttachmentPayload } from 'discord.js';
import type { SpeechOutcome } from '../../core/order/pipeline.ts';

/** A files outcome's parts as attachments, and their format(s) for the reply's words ("wav", "mp3+wav"). */
export function audioFiles(
  outcome: Extract<SpeechOutcome, { kind: 'files' }>,
  voiceId: string,
  credit?: string,
): { files: AttachmentPayload[]; format: string } {
  const voice = outcome.freeVoice?.voice ?? voiceId;
  const files = outcome.files.map((part, index) => ({
    attachment: part.data,
    name: fileName(voice, part.format, outcome.files.length > 1 ? index + 1 : undefined),
    ...described(credit),
  }));
  return { files, format: [...new Set(outcome.files.map((p) => p.format))].join('+') };
}

/** A voice message's Ogg Opus as a file: where it cannot be posted as one, or a file would be too large. */
export function oggFile(
  outcome: Extract<SpeechOutcome, { kind: 'voice-message' }>,
  voiceId: string,
  credit?: string,
): AttachmentPayload {
  return {
    attachment: outcome.message.ogg,
    name: fileName(outcome.freeVoice?.voice ?? voiceId, 'ogg'),
    ...described(credit),
  };
}

/** The longest part of a voice's ID a file's name keeps. */
const MAX_VOICE_IN_NAME = 64;

/** `saybot-<voice>[-<n>].<format>`, safe on every file system: odd characters as `-`, bounded, never reserved. */
function fileName(voice: string, format: string, index?: number): string {
  const stem = voice.replace(/[^A-Za-z0-9._()+-]/g, '-').slice(0, MAX_VOICE_IN_NAME);
  return `saybot-${stem}${index === undefined ? '' : `-${index}`}.${format}`;
}

/** A file's own words (its alt text): the credit its voice's engine asks for, where it asks for one. */
const described = (credit: string | undefined) => (credit === undefined ? {} : { description: credit });

/** Bytes as the replies' megabytes ("7.9"). */
export const megabytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);
