// What a reply's buttons replay is kept bounded: in count (the oldest goes first) and in age.
import { describe, expect, it } from 'vitest';
import {
  REPLY_AUDIO_MAX_ENTRIES,
  REPLY_AUDIO_TTL_MS,
  ReplyAudioRegistry,
  type ReplyAudio,
} from '../../../src/features/speaking/reply-audio.ts';
import { customId, parseCustomId } from '../../../src/features/speaking/reply-button-row.ts';

const audio = (text: string): ReplyAudio => ({
  request: { kind: 'tts', text, voice: 'voice-b-en-m-01', format: 'wav' } as ReplyAudio['request'],
  guildId: '1',
  askerId: '2',
  seconds: 1,
});

describe('ReplyAudioRegistry', () => {
  it(`keeps at most ${REPLY_AUDIO_MAX_ENTRIES} replies, dropping the oldest`, () => {
    const registry = new ReplyAudioRegistry();
    const first = registry.register(audio('first'));
    let last = first;
    for (let i = 0; i < REPLY_AUDIO_MAX_ENTRIES; i++) last = registry.register(audio(`n${i}`));
    expect(registry.size).toBe(REPLY_AUDIO_MAX_ENTRIES);
    expect(registry.get(first)).toBeUndefined();
    expect(registry.get(last)?.request.text).toBe(`n${REPLY_AUDIO_MAX_ENTRIES - 1}`);
  });

  it('forgets a reply once it is older than the time bound', () => {
    let now = 1_000;
    const registry = new ReplyAudioRegistry({ now: () => now });
    const id = registry.register(audio('x'));
    now += REPLY_AUDIO_TTL_MS - 1;
    expect(registry.get(id)).toBeDefined();
    now += 1;
    expect(registry.get(id)).toBeUndefined();
    expect(registry.size).toBe(0);
  });

  it("gives custom_ids within Discord's 100 characters that parse back, and refuses others", () => {
    const id = new ReplyAudioRegistry().register(audio('x'));
    const value = customId('sound', id);
    expect(value.length).toBeLessThanOrEqual(100);
    expect(parseCustomId(value)).toEqual({ action: 'sound', id });
    expect(parseCustomId('sb1:delete:abc')).toBeUndefined();
    expect(parseCustomId(`sb1:play:${'a'.repeat(40)}`)).toBeUndefined();
  });
});
