// Requests that part 1 says are malformed fail locally with BadRequestError, and no HTTP request is made.
import { expect, it } from 'vitest';
import { BadRequestError } from '../../../src/core/api/errors.ts';
import type { VoiceApiClient } from '../../../src/core/api/client.ts';
import { chargeOf } from '../../../src/core/quota/paid-call.ts';
import { fixture, rejectionOf, useSandbox } from './helpers.ts';

const api = useSandbox();

const wav = (): Uint8Array => fixture('tone-220hz-5s-48k.wav');

// Deliberately malformed input, as plain JavaScript callers (or a bad cast) could send it.
const cases: { what: string; call: (c: VoiceApiClient) => Promise<unknown>; field: string }[] = [
  { what: 'tts without text', field: 'text', call: (c) => c.tts({ voice_id: 'voice-b-en-f-01' } as never) },
  { what: 'tts with empty text', field: 'text', call: (c) => c.tts({ text: '', voice_id: 'voice-b-en-f-01' }) },
  { what: 'tts with blank text', field: 'text', call: (c) => c.tts({ text: ' \n\t ', voice_id: 'voice-b-en-f-01' }) },
  {
    what: 'tts with non-string text',
    field: 'text',
    call: (c) => c.tts({ text: 42, voice_id: 'voice-b-en-f-01' } as never),
  },
  { what: 'tts without voice_id', field: 'voice_id', call: (c) => c.tts({ text: 'Hi' } as never) },
  {
    what: 'tts with `voice` instead of `voice_id`',
    field: 'voice',
    call: (c) => c.tts({ text: 'Hi', voice: 'voice-b-en-f-01' } as never),
  },
  {
    what: 'tts with output_format ogg',
    field: 'output_format',
    call: (c) => c.tts({ text: 'Hi', voice_id: 'v', output_format: 'ogg' } as never),
  },
  {
    what: 'tts with an empty language',
    field: 'language',
    call: (c) => c.tts({ text: 'Hi', voice_id: 'v', language: '' }),
  },
  {
    what: 'tts with a misspelt field',
    field: 'voiceId',
    call: (c) => c.tts({ text: 'Hi', voice_id: 'v', voiceId: 'v' } as never),
  },
  { what: 'tts with no request at all', field: 'request', call: (c) => c.tts(null as never) },
  {
    what: 'emotion-tts with exaggeration 1.5',
    field: 'exaggeration',
    call: (c) => c.emotionTts({ text: 'Hi', exaggeration: 1.5 }),
  },
  {
    what: 'emotion-tts with exaggeration -0.1',
    field: 'exaggeration',
    call: (c) => c.emotionTts({ text: 'Hi', exaggeration: -0.1 }),
  },
  {
    what: 'emotion-tts with exaggeration NaN',
    field: 'exaggeration',
    call: (c) => c.emotionTts({ text: 'Hi', exaggeration: Number.NaN }),
  },
  {
    what: 'emotion-tts with `voice_id`',
    field: 'voice_id',
    call: (c) => c.emotionTts({ text: 'Hi', voice_id: 'v' } as never),
  },
  { what: 'emotion-tts with empty text', field: 'text', call: (c) => c.emotionTts({ text: '' }) },
  {
    what: 'clone without text',
    field: 'text',
    call: (c) => c.cloneVoice({ ref_audio: { data: wav(), filename: 'a.wav' } } as never),
  },
  { what: 'clone without ref_audio', field: 'ref_audio', call: (c) => c.cloneVoice({ text: 'Hi' } as never) },
  {
    what: 'clone with empty ref_audio',
    field: 'ref_audio.data',
    call: (c) => c.cloneVoice({ text: 'Hi', ref_audio: { data: new Uint8Array(), filename: 'a.wav' } }),
  },
  {
    what: 'clone without a filename',
    field: 'ref_audio.filename',
    call: (c) => c.cloneVoice({ text: 'Hi', ref_audio: { data: wav(), filename: '' } }),
  },
  {
    what: 'clone with ref_audio as a string',
    field: 'ref_audio.data',
    call: (c) => c.cloneVoice({ text: 'Hi', ref_audio: { data: 'abc', filename: 'a.wav' } } as never),
  },
  {
    what: 'clone with an Ogg clip',
    field: 'ref_audio',
    call: (c) =>
      c.cloneVoice({ text: 'Hi', ref_audio: { data: fixture('not-allowed-ogg-5s.ogg'), filename: 'a.ogg' } }),
  },
  {
    what: 'clone with Ogg named .wav',
    field: 'ref_audio',
    call: (c) =>
      c.cloneVoice({ text: 'Hi', ref_audio: { data: fixture('ogg-renamed-as.wav'), filename: 'voice.wav' } }),
  },
];

it.each(cases)('$what: BadRequestError naming $field, no request', async ({ call, field }) => {
  const error = await rejectionOf(call(api.client));
  expect(error).toBeInstanceOf(BadRequestError);
  expect(error).toMatchObject({ status: undefined, requestId: undefined });
  expect((error as Error).message).toContain('(not sent)');
  expect((error as Error).message).toContain(field);
  expect(api.sandbox.requests).toHaveLength(0);
});

it('a valid request with every optional field does reach the sandbox', async () => {
  const response = await api.client.tts({
    text: 'Hi',
    voice_id: 'voice-b-en-f-01',
    language: 'en',
    output_format: 'wav',
    tone_instruction: 'warm',
  });
  response.body.destroy();
  expect(api.sandbox.requests).toHaveLength(1);
});

// A paid call is written on the books before it is sent (the part source's write-ahead): one refused here was never
// sent, so its caller hears "not charged" and takes the write back (found by an outside reader: it stayed spent).
it.each([
  { what: 'tts', request: { endpoint: 'tts' as const, body: { text: 'Hi', voice_id: 'v', language: '' } } },
  { what: 'emotion-tts', request: { endpoint: 'emotion-tts' as const, body: { text: 'Hi', exaggeration: 2 } } },
  {
    what: 'voice-clone',
    request: {
      endpoint: 'voice-clone' as const,
      body: { text: 'Hi', ref_audio: { data: new Uint8Array(), filename: 'a.wav' } },
    },
  },
])('$what refused before it is sent tells its books "not charged"', async ({ request }) => {
  const heard: string[] = [];
  const sent = await api.client.send(request);
  const error = sent.kind === 'ok' ? undefined : (heard.push(chargeOf(sent)), sent.error);
  expect(error).toBeInstanceOf(BadRequestError);
  expect(heard).toEqual(['not-charged']);
  expect(api.sandbox.requests).toHaveLength(0);
});
