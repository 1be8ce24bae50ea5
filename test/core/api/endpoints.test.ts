// Every endpoint's happy path against the sandbox over real HTTP, format detection from the bytes, and the
// body arriving as a stream while the sandbox is still sending it.
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  PermissionDeniedError,
  UndeliveredError,
  UnexpectedResponseError,
} from '../../../src/core/api/errors.ts';
import { pitchFromBytes } from '@saybot/voice-sandbox/clone.ts';
import { startSandbox } from '@saybot/voice-sandbox';
import { clientFor, fixture, readAll, rejectionOf, requestsTo, useSandbox } from './helpers.ts';

const api = useSandbox();

describe('tts', () => {
  it('returns WAV as a stream, with the request id and usage from the headers', async () => {
    const response = await api.client.tts({ text: 'Hello from SayBot.', voice_id: 'voice-b-en-f-01' });
    expect(response.format).toBe('wav');
    const bytes = await readAll(response.body);
    const [record] = requestsTo(api.sandbox, 'tts');
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WAVE');
    // Every byte the sandbox sent, the sniffed head included, exactly once.
    expect(bytes.length).toBe(record?.bodyBytes);
    expect(response.requestId).toBe(record?.id);
    expect(response.usage?.limit).toBe(300_000);
    expect(response.usage?.used).toBe(api.sandbox.charactersBilled(api.sandbox.testKey));
    expect(response.usage?.remaining).toBe(300_000 - api.sandbox.charactersBilled(api.sandbox.testKey));
    expect(response.usage?.resetAt).toBeInstanceOf(Date);
    expect(record?.voice).toBe('voice-b-en-f-01');
  });

  it('returns MP3 when asked, with every optional field sent', async () => {
    const response = await api.client.tts({
      text: '안녕하세요',
      voice_id: 'voice-b-ko-m-01',
      language: 'ko',
      output_format: 'mp3',
      tone_instruction: 'calm and slow',
    });
    expect(response.format).toBe('mp3');
    const bytes = await readAll(response.body);
    expect(bytes.length).toBe(requestsTo(api.sandbox, 'tts')[0]?.bodyBytes);
    expect(requestsTo(api.sandbox, 'tts')[0]?.outputFormat).toBe('mp3');
  });

  it('detects a streamed WAV header (unknown data size, LIST before data)', async () => {
    api.sandbox.setPacing({ streamedWavHeader: true });
    const response = await api.client.tts({ text: 'Streaming header.', voice_id: 'voice-b-ja-f-01' });
    expect(response.format).toBe('wav');
    expect((await readAll(response.body)).length).toBe(requestsTo(api.sandbox, 'tts')[0]?.bodyBytes);
  });

  it('hands the body over while the sandbox is still sending it', async () => {
    // About 2.5 s of audio sent over ~0.75 s in 1 KiB pieces.
    api.sandbox.setPacing({ realtimeFactor: 0.3, chunkBytes: 1024 });
    const text = 'This sentence is long enough to take a while to send.';
    const events: string[] = [];
    const note = (event: string): void => {
      const record = requestsTo(api.sandbox, 'tts')[0];
      events.push(`${event}: sandbox ${record?.outcome === 'complete' ? 'done' : 'sending'}`);
    };
    const response = await api.client.tts({ text, voice_id: 'voice-b-en-m-01' });
    note('response');
    const chunks: Buffer[] = [];
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      if (chunks.length === 0) note('first chunk');
      chunks.push(chunk);
    }
    note('end');
    expect(events).toEqual(['response: sandbox sending', 'first chunk: sandbox sending', 'end: sandbox done']);
    const record = requestsTo(api.sandbox, 'tts')[0];
    expect(record?.chunks).toBeGreaterThan(10);
    expect(Buffer.concat(chunks).length).toBe(record?.bodyBytes);
  });
});

describe('emotionTts', () => {
  it('detects WAV from the bytes although the sandbox says application/octet-stream', async () => {
    const response = await api.client.emotionTts({ text: 'So happy!', voice: 'voice-b-ja-m-01', exaggeration: 0.8 });
    expect(response.format).toBe('wav');
    const bytes = await readAll(response.body);
    const [record] = requestsTo(api.sandbox, 'emotion-tts');
    expect(bytes.length).toBe(record?.bodyBytes);
    expect(record).toMatchObject({ voice: 'voice-b-ja-m-01', exaggeration: 0.8, status: 200 });
  });

  it('accepts the bounds of exaggeration and leaves the voice to the service default', async () => {
    for (const exaggeration of [0, 1]) {
      const response = await api.client.emotionTts({ text: 'Edge.', exaggeration });
      await readAll(response.body);
    }
    expect(requestsTo(api.sandbox, 'emotion-tts').map((r) => [r.exaggeration, r.voice])).toEqual([
      [0, 'voice-b-ko-f-01'],
      [1, 'voice-b-ko-f-01'],
    ]);
  });
});

describe('cloneVoice', () => {
  it('uploads the reference clip as multipart and the new voice works in tts', async () => {
    const clone = await api.client.cloneVoice({
      text: 'This is my new voice.',
      ref_audio: {
        data: fixture('tone-220hz-5s-48k.wav'),
        filename: 'tone-220hz-5s-48k.wav',
        contentType: 'audio/wav',
      },
    });
    const [record] = requestsTo(api.sandbox, 'voice-clone');
    expect(clone.voiceId).toBe(record?.clonedVoiceId);
    expect(clone.requestId).toBe(record?.id);
    expect(clone.audio?.format).toBe('wav');
    const audio = await readAll(clone.audio?.body ?? expect.fail('no audio'));
    expect(audio.length).toBe(record?.bodyBytes);
    // The sandbox analysed the uploaded file: the whole clip arrived intact.
    expect(api.sandbox.voicePitchHz(clone.voiceId)).toBeCloseTo(220, 0);

    const speech = await api.client.tts({ text: 'Speaking as the clone.', voice_id: clone.voiceId });
    expect(speech.format).toBe('wav');
    await readAll(speech.body);
    expect(requestsTo(api.sandbox, 'tts')[0]).toMatchObject({ voice: clone.voiceId, status: 200 });
  });

  it('uploads an M4A clip without a stated content type, byte for byte', async () => {
    const m4a = fixture('tone-440hz-5s.m4a');
    const clone = await api.client.cloneVoice({
      text: 'Another voice.',
      ref_audio: { data: m4a, filename: 'sample.m4a' },
    });
    if (clone.audio) await readAll(clone.audio.body);
    // The sandbox cannot decode AAC, so an M4A clone's pitch is a hash of the uploaded bytes.
    expect(api.sandbox.voicePitchHz(clone.voiceId)).toBe(pitchFromBytes(m4a));
  });

  it('accepts a JSON clone answer: the voice id, no audio', async () => {
    const jsonSandbox = await startSandbox({ cloneResponse: 'json' });
    const jsonClient = clientFor(jsonSandbox);
    try {
      const clone = await jsonClient.cloneVoice({
        text: 'JSON please.',
        ref_audio: { data: fixture('tone-220hz-5s-48k.wav'), filename: 'ref.wav' },
      });
      expect(clone.audio).toBeUndefined();
      expect(clone.voiceId).toBe(jsonSandbox.requests[0]?.clonedVoiceId);
      expect(clone.usage?.limit).toBe(300_000);
    } finally {
      await jsonClient.close();
      await jsonSandbox.close();
    }
  });

  it('rejects a clone answer without X-Voice-Id as UndeliveredError: the service charged it, so it is not sent again', async () => {
    api.sandbox.injectFault({ kind: 'clone-without-voice-id', endpoint: 'voice-clone' });
    const error = await rejectionOf(
      api.client.cloneVoice({
        text: 'Where is my id?',
        ref_audio: { data: fixture('tone-220hz-5s-48k.wav'), filename: 'ref.wav' },
      }),
    );
    expect(error).toBeInstanceOf(UndeliveredError);
    expect(error).toMatchObject({
      status: 200,
      requestId: requestsTo(api.sandbox)[0]?.id,
      charged: true,
      missing: 'voice-id',
    });
    expect((error as Error).message).toContain('X-Voice-Id');
    expect(requestsTo(api.sandbox)).toHaveLength(1);
  });
});

describe('checkAccess', () => {
  it('confirms the key with a refused request that spends nothing', async () => {
    const access = await api.client.checkAccess();
    const [record] = requestsTo(api.sandbox);
    expect(access).toEqual({
      requestId: record?.id,
      usage: { limit: 300_000, used: 0, remaining: 300_000, resetAt: expect.any(Date) },
    });
    expect(record).toMatchObject({ status: 400, charactersBilled: 0 });
    expect(api.sandbox.charactersBilled()).toBe(0);
  });

  it('throws the typed error for a rejected key or a plan without API access', async () => {
    const stranger = clientFor(api.sandbox, { apiKey: 'sk-not-a-sandbox-key' });
    const starter = clientFor(api.sandbox, { apiKey: api.sandbox.addKey({ plan: 'starter' }) });
    expect(await rejectionOf(stranger.checkAccess())).toBeInstanceOf(AuthenticationError);
    expect(await rejectionOf(starter.checkAccess())).toBeInstanceOf(PermissionDeniedError);
    await Promise.all([stranger.close(), starter.close()]);
  });
});

describe('format detection', () => {
  it.each([
    { what: 'JSON', contentType: 'application/json', body: '{"message":"synthesis queued"}', said: 'synthesis queued' },
    { what: 'JSON labelled audio/wav', contentType: 'audio/wav', body: '{"status":"ok"}', said: '{"status":"ok"}' },
    { what: 'plain text', contentType: 'text/plain', body: 'OK', said: 'OK' },
    {
      what: 'HTML',
      contentType: 'text/html',
      body: '<html><body><h1>Welcome to nginx!</h1></body></html>',
      said: 'Welcome to nginx!',
    },
    { what: 'an empty body', contentType: 'audio/mpeg', body: '', said: undefined },
  ])('a 200 with $what is an UnexpectedResponseError, not retried', async ({ contentType, body, said }) => {
    api.sandbox.injectFault({
      kind: 'response',
      status: 200,
      contentType,
      body,
      headers: { 'X-Request-Id': 'req_not_audio' },
    });
    const error = await rejectionOf(api.client.tts({ text: 'Is this audio?', voice_id: 'voice-b-en-f-01' }));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ status: 200, requestId: 'req_not_audio', serviceMessage: said });
    expect(requestsTo(api.sandbox)).toHaveLength(1);
  });

  it('trusts the bytes over a lying Content-Type: MP3 sent as text/plain is MP3', async () => {
    const mp3 = fixture('speech-ko-44k-stereo.mp3');
    api.sandbox.injectFault({ kind: 'response', status: 200, contentType: 'text/plain', body: mp3 });
    const response = await api.client.tts({ text: 'Lies.', voice_id: 'voice-b-ko-f-01' });
    expect(response.format).toBe('mp3');
    expect((await readAll(response.body)).equals(mp3)).toBe(true);
  });

  it('reports Ogg and FLAC bodies by their format', async () => {
    const ogg = fixture('not-allowed-ogg-5s.ogg');
    api.sandbox.injectFault({ kind: 'response', status: 200, contentType: 'audio/wav', body: ogg });
    const response = await api.client.emotionTts({ text: 'Ogg.' });
    expect(response.format).toBe('ogg');
    expect((await readAll(response.body)).equals(ogg)).toBe(true);

    const flac = Buffer.concat([Buffer.from('fLaC'), Buffer.alloc(3000, 7)]);
    api.sandbox.injectFault({ kind: 'response', status: 200, body: flac });
    const second = await api.client.emotionTts({ text: 'FLAC.' });
    expect(second.format).toBe('flac');
    expect((await readAll(second.body)).equals(flac)).toBe(true);
  });
});
