// The sandbox's variants (what the Voice API document leaves open): each does what it says on the wire.
import { beforeEach, describe, expect, it } from 'vitest';
import { analyseClip } from '../../../src/core/audio/analysis/clip.ts';
import { DEFAULT_VARIANTS, WAV_HEADER_FORMS } from '@saybot/voice-sandbox';
import { cloneVoice, tts, useStartedSandbox } from './helpers.ts';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';

const rig = useStartedSandbox();
beforeEach(() => {
  rig.sandbox.setVariants(DEFAULT_VARIANTS);
});

const TEXT = { text: 'Twenty characters!!!', voice_id: 'voice-b-en-f-01' };
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe('sandbox variants', () => {
  it.each(WAV_HEADER_FORMS)('wavHeader %s: the header form asked for, the same audio', async (wavHeader) => {
    rig.sandbox.setVariants({ wavHeader });
    const body = await bytesOf(await tts(rig.sandbox, TEXT));
    expect(body.toString('ascii', 0, 4)).toBe(wavHeader === 'rf64' ? 'RF64' : 'RIFF');
    const riffSize = body.readUInt32LE(4);
    if (wavHeader === 'exact') expect(riffSize).toBe(body.length - 8);
    else expect(riffSize).toBe(wavHeader === 'streamed-zero' ? 0 : 0xffffffff);
    if (wavHeader === 'streamed-zero') expect(body.includes('fact')).toBe(true);
    expect((await analyseClip(body)).durationSeconds).toBeCloseTo(1.2, 3);
  });

  it.each([16_000, 22_050, 44_100, 48_000])('sampleRate %d', async (sampleRate) => {
    rig.sandbox.setVariants({ sampleRate });
    const info = await analyseClip(await bytesOf(await tts(rig.sandbox, TEXT)));
    expect(info.sampleRate).toBe(sampleRate);
  });

  it('contentType missing or generic, transfer chunked or sized', async () => {
    rig.sandbox.setVariants({ contentType: 'missing', transfer: 'length' });
    const missing = await tts(rig.sandbox, TEXT);
    expect(missing.headers.get('content-type')).toBeNull();
    expect(Number(missing.headers.get('content-length'))).toBeGreaterThan(44);
    await missing.arrayBuffer();
    rig.sandbox.setVariants({ contentType: 'generic', transfer: 'chunked', wavHeader: 'exact' });
    const generic = await tts(rig.sandbox, { ...TEXT, output_format: 'mp3' });
    expect(generic.headers.get('content-type')).toBe('application/octet-stream');
    expect(generic.headers.get('transfer-encoding')).toBe('chunked');
    await generic.arrayBuffer();
  });

  it.each(['json', 'html', 'text', 'empty'] as const)('errorBody %s', async (errorBody) => {
    rig.sandbox.setVariants({ errorBody });
    const response = await tts(rig.sandbox, { ...TEXT, voice_id: 'voice-b-en-f-99' });
    expect(response.status).toBe(400);
    const text = (await bytesOf(response)).toString();
    if (errorBody === 'empty') expect(text).toBe('');
    else expect(text).toContain('unknown voice: voice-b-en-f-99');
    if (errorBody === 'html') expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    if (errorBody === 'json') expect(JSON.parse(text)).toMatchObject({ error: { code: 'unknown_voice' } });
  });

  it.each(['audio', 'json', 'empty'] as const)(
    'cloneBody %s: X-Voice-Id always, the body as asked',
    async (cloneBody) => {
      rig.sandbox.setVariants({ cloneBody });
      const clip = Buffer.from(
        encodeWav(toneSamples({ pitchHz: 200, seconds: 4, amplitude: 0.5, sampleRate: 24_000 }), 24_000, 'exact'),
      );
      const response = await cloneVoice(rig.sandbox, { text: 'Hello.', refAudio: clip, filename: 'a.wav' });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-voice-id')).toBeTruthy();
      const body = await bytesOf(response);
      if (cloneBody === 'empty') expect(body.length).toBe(0);
      if (cloneBody === 'json') expect(JSON.parse(body.toString())).toHaveProperty('voice_id');
      if (cloneBody === 'audio') expect(body.toString('ascii', 0, 4)).toMatch(/RIFF|RF64/);
    },
  );

  it('cloneBody json-only: the voice ID in the JSON body and no X-Voice-Id', async () => {
    rig.sandbox.setVariants({ cloneBody: 'json-only' });
    const clip = Buffer.from(
      encodeWav(toneSamples({ pitchHz: 200, seconds: 4, amplitude: 0.5, sampleRate: 24_000 }), 24_000, 'exact'),
    );
    const response = await cloneVoice(rig.sandbox, { text: 'Hello.', refAudio: clip, filename: 'a.wav' });
    expect(response.headers.get('x-voice-id')).toBeNull();
    expect(JSON.parse((await bytesOf(response)).toString())).toHaveProperty('voice_id');
  });

  it('refuses an unknown variant value', () => {
    expect(() => rig.sandbox.setVariants({ sampleRate: 12_345 })).toThrow();
    expect(() => rig.sandbox.setVariants({ errorBody: 'xml' as never })).toThrow();
  });
});
