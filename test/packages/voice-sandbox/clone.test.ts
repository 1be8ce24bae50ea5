// /v1/voice-clone: reference clips are checked by their bytes, the new voice speaks at the clip's pitch and
// belongs to the key that made it.
import { describe, expect, it } from 'vitest';
import { pitchFromBytes } from '@saybot/voice-sandbox/clone.ts';
import { startSandbox } from '@saybot/voice-sandbox';
import { cloneVoice, emotionTts, errorOf, fixture, hear, tts, useStartedSandbox } from './helpers.ts';

const rig = useStartedSandbox();

async function cloned(refAudio: Uint8Array, key?: string): Promise<string> {
  const response = await cloneVoice(rig.sandbox, { text: 'Reference', refAudio }, { key });
  await hear(response);
  return response.headers.get('x-voice-id') ?? expect.fail('no X-Voice-Id');
}

describe('POST /v1/voice-clone', () => {
  it('clones the 220 Hz tone: X-Voice-Id, WAV of the text at 220 Hz, then tts speaks at 220 Hz', async () => {
    const text = 'This is my new voice.';
    const response = await cloneVoice(rig.sandbox, { text, refAudio: fixture('tone-220hz-5s-48k.wav') });
    const voiceId = response.headers.get('x-voice-id') ?? expect.fail('no X-Voice-Id');
    expect(voiceId).toMatch(/^clone_[0-9a-f]{24}$/);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const heard = await hear(response);
    expect(Math.abs(heard.info.durationSeconds - rig.sandbox.expectedDurationSeconds(text))).toBeLessThan(0.1);
    expect(Math.abs((heard.pitchHz ?? 0) - 220)).toBeLessThan(3);
    expect(Math.abs((rig.sandbox.voicePitchHz(voiceId) ?? 0) - 220)).toBeLessThan(3);
    expect(rig.sandbox.requests[0]).toMatchObject({
      endpoint: 'voice-clone',
      status: 200,
      clonedVoiceId: voiceId,
      charactersBilled: 21,
    });

    const speech = await hear(
      await tts(rig.sandbox, { text: 'Speaking as the clone', voice_id: voiceId, output_format: 'mp3' }),
    );
    expect(Math.abs((speech.pitchHz ?? 0) - 220)).toBeLessThan(3);
    const emotion = await hear(
      await emotionTts(rig.sandbox, { text: 'And with feeling', voice: voiceId, exaggeration: 1 }),
    );
    expect(Math.abs((emotion.pitchHz ?? 0) - 220)).toBeLessThan(3);
  });

  it('measures the pitch of an MP3 reference (330 Hz, VBR)', async () => {
    const voiceId = await cloned(fixture('tone-330hz-5s-vbr.mp3'));
    expect(Math.abs((rig.sandbox.voicePitchHz(voiceId) ?? 0) - 330)).toBeLessThan(3);
  });

  it('gives an M4A reference (no AAC decoder) a pitch derived from its bytes, the same each time', async () => {
    const m4a = fixture('tone-440hz-5s.m4a');
    const first = await cloned(m4a);
    const second = await cloned(m4a);
    expect(first).not.toBe(second);
    expect(rig.sandbox.voicePitchHz(first)).toBe(pitchFromBytes(m4a));
    expect(rig.sandbox.voicePitchHz(second)).toBe(rig.sandbox.voicePitchHz(first));
    const heard = await hear(await tts(rig.sandbox, { text: 'From M4A', voice_id: first }));
    expect(Math.abs((heard.pitchHz ?? 0) - pitchFromBytes(m4a))).toBeLessThan(3);
  });

  it('falls back to the byte-derived pitch for a silent reference', async () => {
    const silent = fixture('silent-5s.wav');
    expect(rig.sandbox.voicePitchHz(await cloned(silent))).toBe(pitchFromBytes(silent));
  });

  it('keeps a cloned voice to the key that created it', async () => {
    const other = rig.sandbox.addKey({ plan: 'pro' });
    const voiceId = await cloned(fixture('tone-220hz-5s-48k.wav'), other);
    expect(await errorOf(await tts(rig.sandbox, { text: 'hi', voice_id: voiceId }))).toMatchObject({
      status: 400,
      code: 'unknown_voice',
    });
    expect((await tts(rig.sandbox, { text: 'hi', voice_id: voiceId }, { key: other })).status).toBe(200);
  });

  it('answers JSON {"voice_id"} with cloneResponse json', async () => {
    const json = await startSandbox({ cloneResponse: 'json' });
    try {
      const response = await cloneVoice(json, { text: 'hi', refAudio: fixture('tone-220hz-5s-48k.wav') });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const voiceId = response.headers.get('x-voice-id');
      expect(await response.json()).toEqual({ voice_id: voiceId });
      expect(json.voicePitchHz(voiceId ?? '')).toBeCloseTo(220, 0);
    } finally {
      await json.close();
    }
  });

  it.each([
    ['a clip of 2 s', 'too-short-2s.wav', 'reference_too_short'],
    ['an M4A of 2.9 s', 'too-short-2.9s.m4a', 'reference_too_short'],
    ['an MP3 cut to 1.25 s of frames', 'truncated.mp3', 'reference_too_short'],
    ['a clip of 61 s', 'too-long-61s.mp3', 'reference_too_long'],
    ['Ogg named .wav', 'ogg-renamed-as.wav', 'unsupported_reference_format'],
    ['Ogg Vorbis', 'not-allowed-ogg-5s.ogg', 'unsupported_reference_format'],
  ])('answers 400 for %s', async (_, name, code) => {
    const error = await errorOf(await cloneVoice(rig.sandbox, { text: 'hi', refAudio: fixture(name), filename: name }));
    expect(error).toMatchObject({ status: 400, code });
    expect(rig.sandbox.charactersBilled()).toBe(0);
  });

  it('answers 400 for bytes that are not audio, and for an empty file', async () => {
    const text = new TextEncoder().encode('just some text, long enough to sniff '.repeat(20));
    expect(await errorOf(await cloneVoice(rig.sandbox, { text: 'hi', refAudio: text }))).toMatchObject({
      code: 'unsupported_reference_format',
    });
    expect(await errorOf(await cloneVoice(rig.sandbox, { text: 'hi', refAudio: new Uint8Array() }))).toMatchObject({
      status: 400,
      code: 'invalid_reference_audio',
    });
  });

  it('answers 400 for a form without ref_audio, with ref_audio as text, or without text', async () => {
    const noFile = await cloneVoice(rig.sandbox, { text: 'hi' });
    expect(await errorOf(noFile)).toMatchObject({ status: 400, code: 'missing_ref_audio' });

    const form = new FormData();
    form.set('text', 'hi');
    form.set('ref_audio', 'not a file');
    const textPart = await fetch(`${rig.sandbox.url}/v1/voice-clone`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${rig.sandbox.testKey}` },
      body: form,
    });
    expect(await errorOf(textPart)).toMatchObject({ status: 400, code: 'missing_ref_audio' });

    const noText = await cloneVoice(rig.sandbox, { refAudio: fixture('tone-220hz-5s-48k.wav') });
    expect(await errorOf(noText)).toMatchObject({ status: 400, code: 'invalid_text' });
  });

  it('answers 400 for a body that is not multipart, or multipart that does not parse', async () => {
    const json = await fetch(`${rig.sandbox.url}/v1/voice-clone`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${rig.sandbox.testKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'hi', ref_audio: 'UklGRg==' }),
    });
    expect(await errorOf(json)).toMatchObject({ status: 400, code: 'invalid_multipart' });

    const broken = await fetch(`${rig.sandbox.url}/v1/voice-clone`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${rig.sandbox.testKey}`, 'Content-Type': 'multipart/form-data; boundary=abc' },
      body: '--xyz\r\nContent-Disposition: form-data; name="text"\r\n\r\nhi\r\n--xyz--\r\n',
    });
    expect(await errorOf(broken)).toMatchObject({ status: 400, code: 'invalid_multipart' });
    expect(rig.sandbox.charactersBilled()).toBe(0);
  });
});
