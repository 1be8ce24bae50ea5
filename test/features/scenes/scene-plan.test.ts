// A parsed script and its cast as the requests the pipeline speaks (planScene): pure, so no store or service.
import { describe, expect, it } from 'vitest';
import { planScene } from '../../../src/features/scenes/scene-plan.ts';
import type { Speaker } from '../../../src/features/scenes/scene-types.ts';
import { DEFAULT_GAP_SECONDS, parseScript } from '../../../src/features/scenes/script.ts';
import { resolveSettings } from '../../../src/core/sourcing/voice-choice.ts';
import type { SpeechSettings } from '../../../src/core/store/common-types.ts';
import { estimateSpeechSeconds } from '../../../src/core/characters.ts';
import { UserError } from '../../../src/core/interactions/failures.ts';

function speakerWith(name: string, settings: SpeechSettings): Speaker {
  return { name, settings: resolveSettings({ options: settings, guildLocale: null }), from: { kind: 'distinct' } };
}

const ALICE = speakerWith('Alice', { voice: 'voice-b-en-f-01' });
const BOB = speakerWith('Bob', { voice: 'voice-b-en-m-01' });
const CAST = new Map([
  ['alice', ALICE],
  ['bob', BOB],
]);

const plan = (source: string, speakers: ReadonlyMap<string, Speaker> = CAST) =>
  planScene(parseScript(source), speakers);

describe('planScene: pauses', () => {
  it('puts the default gap between turns and none before the first', () => {
    const { lines } = plan('Alice: One.\nBob: Two.\nAlice: Three.');
    expect(lines.map((line) => line.pauseBefore)).toEqual([0, DEFAULT_GAP_SECONDS, DEFAULT_GAP_SECONDS]);
  });

  it("adds a script's pause to the gap, and starts with one when the script does", () => {
    const { lines } = plan('[pause 1s]\nAlice: One.\n[pause 2s]\n[pause 500ms]\nBob: Two.\nAlice: Three.');
    expect(lines.map((line) => line.pauseBefore)).toEqual([1, 2.5 + DEFAULT_GAP_SECONDS, DEFAULT_GAP_SECONDS]);
  });
});

describe('planScene: requests', () => {
  it("makes a plain turn a tts request in its speaker's voice, in WAV", () => {
    const { lines } = plan('Alice: Hello there.\nBob: Hi.');
    expect(lines.map((line) => line.request)).toEqual([
      { kind: 'tts', text: 'Hello there.', voice: 'voice-b-en-f-01', format: 'wav' },
      { kind: 'tts', text: 'Hi.', voice: 'voice-b-en-m-01', format: 'wav' },
    ]);
  });

  it("sends a turn's tone as the request's tone, over the speaker's own", () => {
    const calm = new Map([['alice', speakerWith('Alice', { voice: 'voice-b-en-f-01', tone: 'calm' })]]);
    const { lines } = plan('Alice (whispering): A secret.\nAlice: Out loud.', calm);
    expect(lines.map((line) => line.request)).toEqual([
      { kind: 'tts', text: 'A secret.', voice: 'voice-b-en-f-01', format: 'wav', tone: 'whispering' },
      { kind: 'tts', text: 'Out loud.', voice: 'voice-b-en-f-01', format: 'wav', tone: 'calm' },
    ]);
  });

  it("makes a turn with an intensity an emotion request with that exaggeration, in its speaker's voice", () => {
    const { lines } = plan('Bob [0.8]: No way!');
    expect(lines[0]?.request).toEqual({
      kind: 'emotion',
      text: 'No way!',
      voice: 'voice-b-en-m-01',
      exaggeration: 0.8,
    });
    // 0 is an intensity too, not "none".
    expect(plan('Bob [0]: Fine.').lines[0]?.request).toMatchObject({ kind: 'emotion', exaggeration: 0 });
  });

  it('refuses a turn with both a tone and an intensity, naming its line', () => {
    let error: unknown;
    try {
      plan('Alice: Hi.\n\nBob (angry) [0.9]: Go away!');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).userMessage).toEqual({ key: 'scene.toneAndIntensity', params: { line: 3 } });
  });

  it("speaks every turn in WAV, whatever format the speaker's settings give", () => {
    const mp3 = new Map([['alice', speakerWith('Alice', { voice: 'voice-b-en-f-01', format: 'mp3', language: 'en' })]]);
    expect(plan('Alice: Hi.', mp3).lines[0]?.request).toEqual({
      kind: 'tts',
      text: 'Hi.',
      voice: 'voice-b-en-f-01',
      format: 'wav',
      language: 'en',
    });
  });

  it("keeps the speaker's speed, pitch and volume as effects, on tts and emotion requests alike", () => {
    const variant = new Map([
      ['alice', speakerWith('Alice', { voice: 'voice-b-en-f-01', speed: 1.25, pitch: 3, volume: -6 })],
    ]);
    const { lines } = plan('Alice: Hi.\nAlice [0.5]: Wow!', variant);
    const effects = { speed: 1.25, pitch: 3, volumeDb: -6 };
    expect(lines.map((line) => line.request)).toEqual([
      { kind: 'tts', text: 'Hi.', voice: 'voice-b-en-f-01', format: 'wav', effects },
      { kind: 'emotion', text: 'Wow!', voice: 'voice-b-en-f-01', exaggeration: 0.5, effects },
    ]);
  });

  it("throws (a programming error, not a member's) for a speaker the cast did not resolve", () => {
    expect(() => plan('Carol: Hi.')).toThrow(/carol/);
    expect(() => plan('Carol: Hi.')).not.toThrow(UserError);
  });
});

describe('planScene: turns, speakers and length', () => {
  it('lists the turns under the names as first written, and counts the distinct speakers', () => {
    const result = plan('Alice: One.\nBob: Two.\nALICE: Three.');
    expect(result.turns).toEqual([
      { speaker: 'Alice', text: 'One.' },
      { speaker: 'Bob', text: 'Two.' },
      { speaker: 'Alice', text: 'Three.' },
    ]);
    expect(result.speakers).toBe(2);
    expect(plan('Bob: Alone.').speakers).toBe(1);
  });

  it('estimates the seconds from the texts and every pause before a turn', () => {
    const texts = ['Good morning, everyone.', '안녕하세요.', 'Bye.'];
    const result = plan(`Alice: ${texts[0]}\n[pause 1.5s]\nBob: ${texts[1]}\nAlice: ${texts[2]}`);
    const spoken = texts.reduce((sum, text) => sum + estimateSpeechSeconds(text), 0);
    expect(result.seconds).toBeCloseTo(spoken + 1.5 + 2 * DEFAULT_GAP_SECONDS, 9);
  });

  it("counts a speaker's speed, which SayBot applies itself: a line at half speed lasts twice its estimate", () => {
    const slow = new Map([['alice', speakerWith('Alice', { voice: 'voice-b-en-f-01', speed: 0.5 })]]);
    const text = 'Slowly, very slowly, so that every word is heard.';
    expect(plan(`Alice: ${text}`, slow).seconds).toBeCloseTo(2 * estimateSpeechSeconds(text), 9);
  });
});
