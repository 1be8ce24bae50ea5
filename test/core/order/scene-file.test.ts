// A scene's file (sceneFile): its parts read one after another, each only while the scene may go on, counted
// against the longest scene as they come, so audio far longer than its text asks for stops the scene before more is
// held on the main thread or paid, and what was paid is delivered cut at the cap.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_SCENE_SECONDS } from '../../../src/core/audio/effects/scene-mix.ts';
import type { Charge } from '../../../src/core/quota/paid-call.ts';
import type { PartSource } from '../../../src/core/sourcing/part-source.ts';
import type { SpeechAudio } from '../../../src/core/sourcing/order-account.ts';
import type { SpeechRequest } from '../../../src/core/settings/speech-request.ts';
import { sceneFile } from '../../../src/core/order/scene-file.ts';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';

const RATE = 8000;
const charge = { context: { guildId: 'guild-1', userId: 'member-1', command: 'scene' } } as unknown as Charge;
const line = (text: string): { request: SpeechRequest; texts: string[]; pauseBefore: number } => ({
  request: { kind: 'tts', text, voice: 'voice-b-en-f-01', format: 'wav' },
  texts: [text],
  pauseBefore: 0,
});

/** A part source whose every part lasts `seconds`, counting what it was asked for. */
function sourceOf(seconds: number): { source: PartSource; asked: string[] } {
  const asked: string[] = [];
  const wav = Buffer.from(encodeWav(toneSamples({ pitchHz: 200, seconds, amplitude: 0.3, sampleRate: RATE }), RATE));
  const source = {
    fetchPart: (_request: SpeechRequest, text: string): Promise<{ audio: SpeechAudio }> => {
      asked.push(text);
      return Promise.resolve({
        audio: { format: 'wav', body: Readable.from([wav]), requestId: text } as unknown as SpeechAudio,
      });
    },
  } as unknown as PartSource;
  return { source, asked };
}

describe('sceneFile', () => {
  it(`stops at the part that takes the scene past ${MAX_SCENE_SECONDS} s, requesting none after it, and keeps it cut at the cap`, async () => {
    const { source, asked } = sourceOf(MAX_SCENE_SECONDS / 2 + 10);
    const lines = [line('one'), line('two'), line('three')];
    const scene = await sceneFile(source, lines, { charge }, () => Promise.resolve(), 'wav');
    expect(asked).toEqual(['one', 'two']);
    // Paid for, so delivered: cut at the cap, said so, the line that passed it ending there.
    expect(scene.cutAt).toBe(MAX_SCENE_SECONDS);
    expect(scene.seconds).toBeCloseTo(MAX_SCENE_SECONDS, 3);
    expect(scene.timeline).toHaveLength(2);
    expect(scene.timeline[1]?.end).toBeCloseTo(MAX_SCENE_SECONDS, 3);
  });

  it('asks before each part whether the scene may still go on, and requests nothing once it may not', async () => {
    const { source, asked } = sourceOf(0.2);
    let checks = 0;
    const allowed = () => (++checks > 1 ? Promise.reject(new Error('muted')) : Promise.resolve());
    await expect(sceneFile(source, [line('one'), line('two')], { charge }, allowed, 'wav')).rejects.toThrow('muted');
    expect(asked).toEqual(['one']);
  });
});
