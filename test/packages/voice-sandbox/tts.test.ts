// /v1/tts and /v1/emotion-tts over real HTTP: the audio decodes, lasts as long as the text says and speaks at
// the voice's pitch; every malformed request is a 400 with a JSON error and bills nothing.
import { describe, expect, it } from 'vitest';
import { PRESET_VOICES, startSandbox } from '@saybot/voice-sandbox';
import { emotionTts, errorOf, hear, tts, useStartedSandbox } from './helpers.ts';

const rig = useStartedSandbox();

describe('POST /v1/tts', () => {
  it('returns WAV PCM16 24 kHz mono of the expected length at the voice pitch', async () => {
    const text = 'Hello there, this is SayBot.';
    const response = await tts(rig.sandbox, { text, voice_id: 'voice-b-en-f-01' });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
    const heard = await hear(response);
    expect(heard.info).toMatchObject({ format: 'wav', sampleRate: 24_000, channels: 1, truncated: false });
    expect(rig.sandbox.expectedDurationSeconds(text)).toBeCloseTo(28 * 0.06, 6);
    expect(Math.abs(heard.info.durationSeconds - rig.sandbox.expectedDurationSeconds(text))).toBeLessThan(0.1);
    expect(Math.abs((heard.pitchHz ?? 0) - 540)).toBeLessThan(3);
    expect(rig.sandbox.voicePitchHz('voice-b-en-f-01')).toBe(540);
    expect(rig.sandbox.requests).toMatchObject([
      {
        endpoint: 'tts',
        status: 200,
        voice: 'voice-b-en-f-01',
        outputFormat: 'wav',
        charactersBilled: 28,
        outcome: 'complete',
      },
    ]);
    expect(rig.sandbox.requests[0]?.bodyBytes).toBe(heard.bytes.length);
  });

  it('returns MP3 for output_format mp3, and it decodes', async () => {
    const response = await tts(rig.sandbox, {
      text: 'MP3, please.',
      voice_id: 'voice-b-ko-m-01',
      output_format: 'mp3',
    });
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const heard = await hear(response);
    expect(heard.info.format).toBe('mp3');
    expect(heard.info).toMatchObject({ channels: 1, sampleRate: 24_000, truncated: false });
    // The LAME Info frame's delay and padding let the decoder cut the stream to the exact length.
    expect(heard.info.durationSeconds).toBeCloseTo(rig.sandbox.expectedDurationSeconds('MP3, please.'), 3);
    expect(Math.abs((heard.pitchHz ?? 0) - 110)).toBeLessThan(3);
  });

  it('gives the shortest text half a second and accepts language and tone_instruction', async () => {
    const heard = await hear(
      await tts(rig.sandbox, {
        text: 'Hi',
        voice_id: 'voice-b-ja-m-01',
        language: 'ja',
        tone_instruction: 'whisper softly',
      }),
    );
    expect(rig.sandbox.expectedDurationSeconds('Hi')).toBe(0.5);
    expect(Math.abs(heard.info.durationSeconds - 0.5)).toBeLessThan(0.1);
  });

  it('speaks every preset at its own pitch', async () => {
    const heard = await Promise.all(
      PRESET_VOICES.map(async (voice) => ({
        voice,
        heard: await hear(await tts(rig.sandbox, { text: 'Voice check', voice_id: voice.id })),
      })),
    );
    for (const { voice, heard: h } of heard)
      expect(Math.abs((h.pitchHz ?? 0) - voice.pitchHz), voice.id).toBeLessThan(3);
  });

  it('follows the sampleRate and secondsPerCharacter options', async () => {
    const custom = await startSandbox({ sampleRate: 16_000, secondsPerCharacter: 0.1 });
    try {
      const heard = await hear(await tts(custom, { text: 'Ten chars!', voice_id: 'voice-b-zh-f-01' }));
      expect(heard.info.sampleRate).toBe(16_000);
      expect(custom.expectedDurationSeconds('Ten chars!')).toBeCloseTo(1, 6);
      expect(Math.abs(heard.info.durationSeconds - 1)).toBeLessThan(0.1);
      expect(Math.abs((heard.pitchHz ?? 0) - 480)).toBeLessThan(3);
    } finally {
      await custom.close();
    }
  });

  it.each([16_000, 48_000])('writes gapless MP3 at %i Hz too (MPEG-2 and MPEG-1 frames)', async (sampleRate) => {
    const custom = await startSandbox({ sampleRate });
    try {
      const heard = await hear(
        await tts(custom, { text: 'Rate check', voice_id: 'voice-b-fr-m-01', output_format: 'mp3' }),
      );
      expect(heard.info).toMatchObject({ format: 'mp3', sampleRate, truncated: false });
      expect(heard.info.durationSeconds).toBeCloseTo(custom.expectedDurationSeconds('Rate check'), 3);
      expect(Math.abs((heard.pitchHz ?? 0) - 230)).toBeLessThan(3);
    } finally {
      await custom.close();
    }
  });

  it.each([
    ['not JSON', '{"text": "hi", ', 'invalid_json'],
    ['a JSON array', '["hi"]', 'invalid_json'],
    ['no text', { voice_id: 'voice-b-ko-f-01' }, 'invalid_text'],
    ['empty text', { text: '', voice_id: 'voice-b-ko-f-01' }, 'invalid_text'],
    ['blank text', { text: '  \n ', voice_id: 'voice-b-ko-f-01' }, 'invalid_text'],
    ['text not a string', { text: 42, voice_id: 'voice-b-ko-f-01' }, 'invalid_text'],
    ['no voice_id', { text: 'hi' }, 'invalid_voice'],
    ['an unknown preset', { text: 'hi', voice_id: 'voice-b-ko-f-99' }, 'unknown_voice'],
    ['a clone never created', { text: 'hi', voice_id: 'clone_0123456789abcdef01234567' }, 'unknown_voice'],
    ['output_format ogg', { text: 'hi', voice_id: 'voice-b-ko-f-01', output_format: 'ogg' }, 'invalid_output_format'],
    ['language not a string', { text: 'hi', voice_id: 'voice-b-ko-f-01', language: 7 }, 'invalid_language'],
    ['text over the cap', { text: 'a'.repeat(5001), voice_id: 'voice-b-ko-f-01' }, 'text_too_long'],
  ])('answers 400 for %s', async (_, body, code) => {
    const error = await errorOf(await tts(rig.sandbox, body));
    expect(error).toMatchObject({ status: 400, code });
    expect(rig.sandbox.charactersBilled()).toBe(0);
    expect(rig.sandbox.requests[0]).toMatchObject({ status: 400, errorCode: code, charactersBilled: 0 });
  });
});

describe('POST /v1/emotion-tts', () => {
  it('returns WAV as application/octet-stream in the default voice', async () => {
    const response = await emotionTts(rig.sandbox, { text: 'So happy!' });
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    const heard = await hear(response);
    expect(heard.info.format).toBe('wav');
    expect(Math.abs(heard.info.durationSeconds - rig.sandbox.expectedDurationSeconds('So happy!'))).toBeLessThan(0.1);
    expect(Math.abs((heard.pitchHz ?? 0) - (rig.sandbox.voicePitchHz('voice-b-ko-f-01') ?? 0))).toBeLessThan(3);
    expect(rig.sandbox.requests[0]).toMatchObject({ voice: 'voice-b-ko-f-01', exaggeration: 0.5, charactersBilled: 9 });
  });

  it('gets louder with exaggeration: at least 12 dB from 0 to 1', async () => {
    const level = async (exaggeration: number) =>
      (await hear(await emotionTts(rig.sandbox, { text: 'Loudness', voice: 'voice-b-en-m-01', exaggeration })))
        .levelDbfs;
    const [quiet, middle, loud] = [await level(0), await level(0.5), await level(1)];
    expect(loud - quiet).toBeGreaterThanOrEqual(12);
    expect(middle).toBeGreaterThan(quiet);
    expect(loud).toBeGreaterThan(middle);
  });

  it.each([
    ['exaggeration above 1', { text: 'hi', exaggeration: 1.5 }, 'invalid_exaggeration'],
    ['exaggeration below 0', { text: 'hi', exaggeration: -0.1 }, 'invalid_exaggeration'],
    ['exaggeration as a string', { text: 'hi', exaggeration: '0.5' }, 'invalid_exaggeration'],
    ['exaggeration null', { text: 'hi', exaggeration: null }, 'invalid_exaggeration'],
    ['an unknown voice', { text: 'hi', voice: 'voice-b-xx-f-01' }, 'unknown_voice'],
    ['no text', { exaggeration: 0.2 }, 'invalid_text'],
    ['not JSON', 'text=hi', 'invalid_json'],
  ])('answers 400 for %s', async (_, body, code) => {
    expect(await errorOf(await emotionTts(rig.sandbox, body))).toMatchObject({ status: 400, code });
    expect(rig.sandbox.charactersBilled()).toBe(0);
  });
});
