import { z } from 'zod';
import { DEFAULT_EMOTION_VOICE } from './voices.ts';

/** An error the sandbox answers with `{"error": {"code", "message"}}` and this status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

export function badRequest(code: string, message: string): ApiError {
  return new ApiError(400, code, message);
}

const requiredString = (field: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) });
const text = requiredString('text').refine((t) => t.trim().length > 0, 'text must not be empty');
const voiceId = (field: string) => requiredString(field).min(1, `${field} must not be empty`).max(200);

const ttsBody = z.object({
  text,
  voice_id: voiceId('voice_id'),
  language: z.string().min(1).max(35).optional(),
  output_format: z.enum(['wav', 'mp3'], { error: "output_format must be 'wav' or 'mp3'" }).default('wav'),
  tone_instruction: z.string().max(2000).optional(),
});

const emotionBody = z.object({
  text,
  voice: voiceId('voice').default(DEFAULT_EMOTION_VOICE),
  exaggeration: z
    .number({ error: 'exaggeration must be a number from 0 to 1' })
    .min(0, 'exaggeration must be from 0 to 1')
    .max(1, 'exaggeration must be from 0 to 1')
    .default(0.5),
});

export type TtsBody = z.output<typeof ttsBody>;
export type EmotionBody = z.output<typeof emotionBody>;
export interface CloneBody {
  text: string;
  refAudio: Uint8Array;
}

// The field an issue is about names the error code, so that clients and tests can tell the cases apart.
const FIELD_CODES: Readonly<Record<string, string>> = {
  text: 'invalid_text',
  voice_id: 'invalid_voice',
  voice: 'invalid_voice',
  language: 'invalid_language',
  output_format: 'invalid_output_format',
  tone_instruction: 'invalid_tone_instruction',
  exaggeration: 'invalid_exaggeration',
};

function validate<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = typeof issue?.path[0] === 'string' ? issue.path[0] : undefined;
  const code = (field !== undefined ? FIELD_CODES[field] : undefined) ?? 'invalid_request';
  throw badRequest(code, issue?.message ?? 'invalid request');
}

function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw badRequest('invalid_json', 'the body must be a JSON object');
  }
}

function jsonObject<T>(schema: z.ZodType<T>, body: Uint8Array): T {
  const value = parseJson(body);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('invalid_json', 'the body must be a JSON object');
  }
  return validate(schema, value);
}

export function parseTtsBody(body: Uint8Array): TtsBody {
  return jsonObject(ttsBody, body);
}

export function parseEmotionBody(body: Uint8Array): EmotionBody {
  return jsonObject(emotionBody, body);
}

/** multipart/form-data with a `text` field and a `ref_audio` file, parsed by the platform's Request. */
export async function parseCloneBody(contentType: string | undefined, body: Uint8Array): Promise<CloneBody> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) {
    throw badRequest('invalid_multipart', 'the body must be multipart/form-data');
  }
  let form: FormData;
  try {
    form = await new Request('http://sandbox.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    }).formData();
  } catch {
    throw badRequest('invalid_multipart', 'the multipart/form-data body could not be parsed');
  }
  const refAudio = form.get('ref_audio');
  if (refAudio === null) throw badRequest('missing_ref_audio', 'ref_audio is required');
  if (typeof refAudio === 'string') throw badRequest('missing_ref_audio', 'ref_audio must be a file');
  const fields = validate(z.object({ text }), { text: form.get('text') ?? undefined });
  return { text: fields.text, refAudio: new Uint8Array(await refAudio.arrayBuffer()) };
}
