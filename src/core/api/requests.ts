// A paid request's wire shape, checked before anything is sent. The requests' field names are the wire names (as the
// OpenAI SDK does), so a request reads like the API docs; objects are strict: a misspelt field (`voiceId`) fails here
// instead of being silently dropped.
import { z } from 'zod';
import { BadRequestError } from './errors.ts';

const text = z
  .string({ error: 'is required and must be a string' })
  .refine((s) => s.trim().length > 0, 'must not be empty');
const voiceId = z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty');
const optionalText = z.string({ error: 'must be a string' }).min(1, 'must not be empty').optional();

export const TtsRequestSchema = z.strictObject({
  text,
  voice_id: voiceId,
  language: optionalText,
  output_format: z.enum(['wav', 'mp3'], { error: 'must be "wav" or "mp3"' }).optional(),
  tone_instruction: optionalText,
});

export const EmotionTtsRequestSchema = z.strictObject({
  text,
  /** Note: `voice`, not `voice_id`, on this endpoint. Default on the service: voice-b-ko-f-01. */
  voice: voiceId.optional(),
  exaggeration: z
    .number({ error: 'must be a number' })
    .min(0, 'must be between 0 and 1')
    .max(1, 'must be between 0 and 1')
    .optional(),
});

const RefAudioSchema = z.strictObject({
  // Any Uint8Array, Buffer included, whatever its backing buffer (z.instanceof would demand an ArrayBuffer one).
  data: z
    .custom<Uint8Array>((d) => d instanceof Uint8Array, { error: 'must be a Uint8Array or Buffer' })
    .refine((d) => d.byteLength > 0, 'must not be empty'),
  filename: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty'),
  /** Sent as the part's Content-Type; detected from the bytes when omitted. */
  contentType: z.string().min(1).optional(),
});

export const CloneVoiceRequestSchema = z.strictObject({
  text,
  ref_audio: RefAudioSchema,
});

export type TtsRequest = z.input<typeof TtsRequestSchema>;
export type EmotionTtsRequest = z.input<typeof EmotionTtsRequestSchema>;
export type CloneVoiceRequest = z.input<typeof CloneVoiceRequestSchema>;

/** Validates a request locally; an invalid one becomes a BadRequestError before any HTTP call. */
export function validateRequest<S extends z.ZodType>(schema: S, value: unknown, operation: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const where = issue.path.length === 0 ? 'request' : issue.path.join('.');
    return `${where}: ${issue.message}`;
  });
  throw new BadRequestError(`Invalid ${operation} request (not sent): ${problems.join('; ')}`);
}
