import { describe, expect, it } from 'vitest';
import { analyseClip } from '../../src/core/audio/analysis/clip.ts';
import { MessageFlags } from 'discord.js';
import { useFileHarness } from '../support/file-harness.ts';
import { defaultGuilds, pitchOf, runCommand } from '../support/harness.ts';
import { ALICE, BOB, MINJI } from '../support/world.ts';

const [seoul, london] = defaultGuilds() as [ReturnType<typeof defaultGuilds>[0], ReturnType<typeof defaultGuilds>[0]];

const h = useFileHarness({ config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 60 } });

describe('/say in a voice channel', () => {
  it('plays the chosen voice, for as long as the text asks, and names the voice and duration', async () => {
    const text = 'Hello from the lounge.';
    const voice = 'voice-b-en-m-01';
    h.discord.clearAudio(london.id);
    const { handle, content } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text, voice },
    });
    expect(content).toContain(voice);
    const done = await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 15_000);
    expect(done.content).toMatch(/Spoke \d+\.\d s in <#220000000000000003> with `voice-b-en-m-01`/);

    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });
    const expected = h.sandbox.expectedDurationSeconds(text);
    expect(heard.seconds).toBeGreaterThan(expected - 0.1);
    expect(heard.seconds).toBeLessThan(expected + 0.15);
    const pitch = pitchOf(heard);
    expect(pitch).toBeDefined();
    expect(Math.abs((pitch ?? 0) - (h.sandbox.voicePitchHz(voice) ?? 0))).toBeLessThan(4);
    expect(h.discord.botVoiceChannel(london.id)).toBe('220000000000000003');
    // Everything posted is mention-safe.
    for (const r of handle.responses) expect(r.mentioned).toEqual({ users: [], roles: [], everyone: false });
  });

  it("uses the server's language for the default voice and replies in the member's language", async () => {
    h.discord.clearAudio(seoul.id);
    const { handle } = await runCommand(h, {
      guildId: seoul.id,
      userId: MINJI,
      name: 'say',
      options: { text: '안녕하세요, 여러분!' },
    });
    const done = await handle.waitFor((r) => (r.content ?? '').includes('말했습니다'), 15_000);
    expect(done.content).toContain('voice-b-ko-f-01');
    const heard = await h.discord.waitForAudio(seoul.id, { minSeconds: 0.3 });
    expect(Math.abs((pitchOf(heard) ?? 0) - (h.sandbox.voicePitchHz('voice-b-ko-f-01') ?? 0))).toBeLessThan(4);
  });

  it('keeps two guilds speaking at once apart', async () => {
    h.discord.clearAudio(seoul.id);
    h.discord.clearAudio(london.id);
    const [a, b] = await Promise.all([
      runCommand(h, {
        guildId: seoul.id,
        userId: MINJI,
        name: 'say',
        options: { text: 'Two rooms at once, one.', voice: 'voice-b-ja-m-01' },
      }),
      runCommand(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: { text: 'Two rooms at once, two.', voice: 'voice-b-en-f-01' },
      }),
    ]);
    await Promise.all(
      [a, b].map(({ handle }) => handle.waitFor((r) => /Spoke|말했습니다/.test(r.content ?? ''), 15_000)),
    );
    const [heardA, heardB] = await Promise.all([h.discord.waitForAudio(seoul.id), h.discord.waitForAudio(london.id)]);
    expect(Math.abs((pitchOf(heardA) ?? 0) - (h.sandbox.voicePitchHz('voice-b-ja-m-01') ?? 0))).toBeLessThan(4);
    expect(Math.abs((pitchOf(heardB) ?? 0) - (h.sandbox.voicePitchHz('voice-b-en-f-01') ?? 0))).toBeLessThan(4);
  });

  it('splits long text at sentence ends into requests that play in order, without a gap', async () => {
    h.discord.clearAudio(london.id);
    const before = h.sandbox.requests.length;
    const parts = ['First part of the text is here.', 'Second part follows right after it. Third one ends.'];
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text: parts.join(' ') },
    });
    const done = await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const heard = await h.discord.waitForAudio(london.id);
    const sent = h.sandbox.requests.slice(before).filter((r) => r.endpoint === 'tts');
    expect(sent).toHaveLength(2);
    const expected = parts.reduce((sum, p) => sum + h.sandbox.expectedDurationSeconds(p), 0);
    expect(heard.seconds).toBeGreaterThan(expected - 0.1);
    expect(heard.seconds).toBeLessThan(expected + 0.2);
    expect(Number(/Spoke (\d+\.\d) s/.exec(done.content ?? '')?.[1])).toBeCloseTo(expected, 0);
  });
});

describe('/say streams', () => {
  it('starts playing while the Voice API response is still arriving', async () => {
    h.discord.clearAudio(london.id);
    const text = 'Streaming as it arrives, not after.';
    const before = h.sandbox.requests.length;
    // The body stops after about its first second (24 kHz, 16-bit mono) until the first sound is heard: heard at all
    // means heard before the last byte left (no clock: a bot that waited for the whole body would never be heard).
    h.sandbox.injectFault({ kind: 'pause-after', bytes: 44 + 48_000, endpoint: 'tts' });
    const ours = () => h.sandbox.requests.slice(before).find((r) => r.endpoint === 'tts');
    const responseWhenFirstHeard = h.discord
      .waitForPacket(london.id, (p) => !p.silence, 20_000)
      .then(() => ({ outcome: ours()?.outcome, finished: ours()?.finishedAt !== undefined }));
    const { handle } = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'say', options: { text } });
    try {
      expect(await responseWhenFirstHeard).toEqual({ outcome: 'paused', finished: false });
    } finally {
      h.sandbox.resumePaused();
    }
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 15_000);
    expect(ours()?.outcome).toBe('complete');
  });
});

describe('/say as a file', () => {
  it('posts an attachment in the requested format when output:file is asked', async () => {
    const text = 'A file for later.';
    const { handle, content } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text, voice: 'voice-b-en-f-01', format: 'mp3', output: 'file' },
    });
    expect(content).toMatch(/Here is `voice-b-en-f-01`, \d+\.\d s \(mp3\)/);
    const final = handle.responses.find((r) => r.files.length > 0);
    expect(final?.files[0]?.name).toBe('saybot-voice-b-en-f-01.mp3');
    const info = await analyseClip(final?.files[0]?.data ?? Buffer.alloc(0));
    expect(info.format).toBe('mp3');
    expect(Math.abs(info.durationSeconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThan(0.1);
  });

  it('posts a WAV file to a caller who is in no voice channel, in their language', async () => {
    const { handle, content } = await runCommand(h, {
      guildId: london.id,
      userId: BOB,
      name: 'say',
      options: { text: 'Nobody is listening.' },
      locale: 'ja',
    });
    expect(content).toContain('ボイスチャンネルにいないため');
    const file = handle.responses.find((r) => r.files.length > 0)?.files[0];
    expect(file?.name.endsWith('.wav')).toBe(true);
    expect((await analyseClip(file?.data ?? Buffer.alloc(0))).format).toBe('wav');
  });
});

describe('/say refuses what it cannot do, privately', () => {
  it('tells a caller in another channel where the bot is busy', async () => {
    h.sandbox.setPacing({ realtimeFactor: 1 });
    const long = runCommand(h, {
      guildId: seoul.id,
      userId: MINJI,
      name: 'say',
      options: { text: 'A longer sentence that keeps the bot busy a while.' },
    });
    await (await long).handle.waitFor((r) => (r.content ?? '').includes('말하는 중'), 10_000);
    const { handle, content } = await runCommand(h, {
      guildId: seoul.id,
      userId: '300000000000000003',
      name: 'say',
      options: { text: 'Over here!' },
    });
    expect(content).toContain('speaking in <#220000000000000001>');
    expect((handle.responses.at(-1)?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    h.sandbox.setPacing({ realtimeFactor: 0 });
    await runCommand(h, { guildId: seoul.id, userId: MINJI, name: 'stop' });
  });

  it('refuses a voice ID that is not a voice, before any API call', async () => {
    const before = h.sandbox.requests.length;
    const { handle, content } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text: 'hi', voice: 'nope' },
    });
    expect(content).toContain('There is no voice "nope"');
    expect((handle.responses.at(-1)?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('caps the text in the unit the service bills: 1,400 × U+FB2C is 4,200 characters, refused before any call', async () => {
    const before = h.sandbox.requests.length;
    const { content } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text: '\ufb2c'.repeat(1_400), output: 'file' },
    });
    expect(content).toContain('That text is **4200** characters as the voice service counts them');
    expect(content).toContain('at most 4000');
    expect(h.sandbox.requests.length).toBe(before);
  });
});
