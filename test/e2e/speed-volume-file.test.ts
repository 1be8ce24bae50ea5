// Speed, volume and one file per request, end to end: the real bot, the local Discord (DAVE; it sends the
// interaction's attachment_size_limit, 10 MiB, and refuses bigger uploads with 40005 as Discord does) and the
// sandbox Voice API over HTTP, counting its requests and its bill. Heard audio is what a listener decrypted.
import { MessageFlags } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { dominantPitchHz, rmsDbfs } from '../../src/core/audio/analysis/analysis.ts';
import { analyseClip } from '../../src/core/audio/analysis/clip.ts';
import { parseWavHeader } from '../../src/core/audio/codecs/wav.ts';
import { ATTACHMENT_SIZE_LIMIT } from '@saybot/local-discord/messages.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { loudnessOf, numberValue, pitchOf, runCommand, voiceMessageGuilds } from '../support/harness.ts';
import { hearVoiceMessage } from '../core/voice-message/helpers.ts';
import { ALICE, BOB } from '../support/world.ts';

// As on Discord, where @everyone may send voice messages by default; the bot's own role too.
const guilds = voiceMessageGuilds();
const london = guilds[1];
const VOICE = 'voice-b-en-m-01';

const h = useFileHarness({ guilds, config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 1000 } });

const ttsCalls = (from: number) => h.sandbox.requests.slice(from).filter((r) => r.endpoint === 'tts');
/**
 * A text of `characters` characters in numbered sentences (its parts split at sentence ends, none alike). Each
 * length words its sentences apart, so one test's parts are never another's cached parts, in whatever order they run.
 */
const longText = (characters: number) => {
  let text = '';
  for (let i = 1; text.length < characters; i++)
    text += `Sentence ${i} of a ${characters}-character text that takes several requests. `;
  return `${text.slice(0, characters - 1).trimEnd()}.`;
};

describe('speed and volume', () => {
  it("/say speed:1.5 is heard at the voice's pitch in 2/3 of the time; speed:0.75 of the same text as a file makes no second paid call", async () => {
    const text = 'Faster, please, but in my own voice.';
    const expected = h.sandbox.expectedDurationSeconds(text);
    const pitch = h.sandbox.voicePitchHz(VOICE) ?? 0;
    const before = h.sandbox.requests.length;
    const billedBefore = h.sandbox.charactersBilled();
    h.discord.clearAudio(london.id);
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text, voice: VOICE, speed: numberValue(1.5) },
    });
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });
    expect(Math.abs(heard.seconds - expected / 1.5)).toBeLessThan(0.1);
    expect(Math.abs((pitchOf(heard) ?? 0) - pitch)).toBeLessThan(4);
    expect(ttsCalls(before)).toHaveLength(1);

    const slower = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text, voice: VOICE, speed: numberValue(0.75), output: 'file' },
    });
    const file = slower.handle.responses.find((r) => r.files.length > 0)?.files[0];
    const info = await analyseClip(file?.data ?? Buffer.alloc(0));
    expect(Math.abs(info.durationSeconds - expected / 0.75)).toBeLessThan(0.05);
    expect(Math.abs((dominantPitchHz(info.samples ?? new Float32Array(0), info.sampleRate) ?? 0) - pitch)).toBeLessThan(
      4,
    );
    expect(ttsCalls(before)).toHaveLength(1);
    expect(h.sandbox.charactersBilled() - billedBefore).toBe(text.length);
  });

  it('/say pitch:4 is heard four semitones higher at the same length; pitch:0 of the same text makes no second paid call', async () => {
    const text = 'A little higher, the same words.';
    const expected = h.sandbox.expectedDurationSeconds(text);
    const pitch = h.sandbox.voicePitchHz(VOICE) ?? 0;
    const before = h.sandbox.requests.length;
    h.discord.clearAudio(london.id);
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text, voice: VOICE, pitch: numberValue(4) },
    });
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });
    expect(Math.abs(heard.seconds - expected)).toBeLessThan(0.1);
    const shifted = pitch * 2 ** (4 / 12);
    expect(Math.abs((pitchOf(heard) ?? 0) - shifted)).toBeLessThan(shifted * 0.03);
    expect(ttsCalls(before)).toHaveLength(1);

    const plain = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text, voice: VOICE, pitch: numberValue(0), output: 'file' },
    });
    const file = plain.handle.responses.find((r) => r.files.length > 0)?.files[0];
    const info = await analyseClip(file?.data ?? Buffer.alloc(0));
    expect(Math.abs((dominantPitchHz(info.samples ?? new Float32Array(0), info.sampleRate) ?? 0) - pitch)).toBeLessThan(
      4,
    );
    expect(ttsCalls(before)).toHaveLength(1);
  });

  it('/emote volume:-12 is heard 12 dB quieter than the same line at 0 dB, from one paid call', async () => {
    const text = 'Quietly now, with feeling.';
    const before = h.sandbox.requests.length;
    const loudness: number[] = [];
    for (const volume of [0, -12]) {
      h.discord.clearAudio(london.id);
      const { handle } = await runCommand(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'emote',
        options: { text, exaggeration: numberValue(0.5), volume: numberValue(volume) },
      });
      await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
      loudness.push(loudnessOf(await h.discord.waitForAudio(london.id, { minSeconds: 0.5 })));
    }
    expect((loudness[1] ?? 0) - (loudness[0] ?? 0)).toBeCloseTo(-12, 0);
    expect(h.sandbox.requests.slice(before).filter((r) => r.endpoint === 'emotion-tts')).toHaveLength(1);
  });

  it('declares speed 0.5..2, so Discord refuses 3 and no API call is made', async () => {
    const before = h.sandbox.requests.length;
    // SayBot's own answer to a crafted value is setting-declarations.test.ts'; Discord never delivers this one.
    await expect(
      runCommand(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: { text: 'Too fast.', speed: numberValue(3) },
      }),
    ).rejects.toThrow(/options\.speed: at most 2/);
    expect(h.sandbox.requests.length).toBe(before);
  });
});

describe('one file per request', () => {
  it('a 3,300-character /say output:file is several paid requests posted as ONE valid WAV as long as its parts', async () => {
    const text = longText(3300);
    const before = h.sandbox.requests.length;
    const { handle, content } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text, voice: VOICE, output: 'file' },
    });
    expect(content).toMatch(/Here is `voice-b-en-m-01`, \d+\.\d s \(wav\)/);
    const calls = ttsCalls(before);
    expect(calls.length).toBeGreaterThanOrEqual(4);
    const files = handle.responses.flatMap((r) => r.files);
    expect(files).toHaveLength(1);
    const data = files[0]?.data ?? Buffer.alloc(0);
    expect(files[0]?.name).toBe('saybot-voice-b-en-m-01.wav');
    expect(data.readUInt32LE(4)).toBe(data.length - 8);
    const parsed = parseWavHeader(data);
    if (!('header' in parsed)) throw new Error('no WAV header');
    expect(parsed.header.dataOffset + (parsed.header.dataBytes ?? 0)).toBe(data.length);
    const info = await analyseClip(data);
    const parts = calls.reduce((sum, r) => sum + h.sandbox.expectedDurationSeconds(r.text ?? ''), 0);
    expect(Math.abs(info.durationSeconds - parts)).toBeLessThan(0.01);
  }, 60_000);

  it("a file over the interaction's attachment_size_limit is posted as a voice message instead, and the member is told why", async () => {
    const text = longText(3950);
    // This text's WAV is over Discord's 10 MiB: 24 kHz, 16-bit, mono.
    expect(h.sandbox.expectedDurationSeconds(text) * 48_000).toBeGreaterThan(ATTACHMENT_SIZE_LIMIT);
    const from = h.discord.channelMessages(london.textChannelId).length;
    // A member of its own (answered in English): this case's long work holds its member's ration of long work a
    // while, which another case's long file must not meet. A bound, not a figure: four minutes of audio made,
    // joined and encoded as a voice message, the last two as long work at the lowest priority; beside two busy
    // processes that took past 60 s.
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: BOB,
      locale: 'en-US',
      name: 'say',
      options: { text, voice: VOICE, output: 'file' },
      waitMs: 150_000,
    });
    const reply = await handle.waitForFinal(150_000);
    expect(reply.content).toMatch(
      /The WAV file would be 1\d\.\d MB, over the 10\.0 MB Discord takes here, so I posted it as a voice message instead/,
    );
    expect(handle.responses.flatMap((r) => r.files)).toHaveLength(0);
    const posted = h.discord
      .channelMessages(london.textChannelId)
      .slice(from)
      .filter((m) => ((Number(m.message.flags) || 0) & MessageFlags.IsVoiceMessage) !== 0);
    expect(posted).toHaveLength(1);
    const heard = await hearVoiceMessage(posted[0]?.files[0]?.data ?? Buffer.alloc(0));
    expect(Math.abs(heard.seconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThan(0.5);
    expect(Math.abs((heard.pitchHz ?? 0) - (h.sandbox.voicePitchHz(VOICE) ?? 0))).toBeLessThan(4);
    expect(rmsDbfs(heard.samples)).toBeGreaterThan(-20);
  }, 180_000);
});
