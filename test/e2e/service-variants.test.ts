// SayBot against the sandbox in each form the Voice API document leaves open (packages/voice-sandbox Variants): streamed
// WAV headers (sizes 0xFFFFFFFF or 0, RF64, LIST/fact before data), sample rates, missing or generic
// Content-Type, chunked or sized bodies, clone answers with audio, JSON or nothing, error bodies in JSON, HTML,
// text or nothing, MP3 cut in its last frame or short of what its Info header counts. Each is checked end to end: heard at the voice's pitch and the text's length, or posted as a
// file any player reads, or refused with the service's real cause.
import { PermissionFlagsBits } from 'discord.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { analyseClip } from '../../src/core/audio/analysis/clip.ts';
import { parseWavHeader } from '../../src/core/audio/codecs/wav.ts';
import { DEFAULT_VARIANTS, type Variants, type WavHeaderForm } from '@saybot/voice-sandbox';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';
import type { FakeGuildSpec, InteractionHandle } from '@saybot/local-discord/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { pitchOf, runCommand, sayAndHear } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';

const GUILD = '200000000000000091';
const VOICE = '220000000000000091';
const SPEAKER = '300000000000000901'; // in voice, Manage Server (may /clone)
const WRITER = '300000000000000902'; // outside voice: files
const VOICE_ID = 'voice-b-en-m-01';

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(GUILD, 'Variants', { text: '210000000000000091', voice: VOICE, voiceName: 'studio' }, [
    { id: SPEAKER, username: 'speaker', permissions: PermissionFlagsBits.ManageGuild, voiceChannelId: VOICE },
    { id: WRITER, username: 'writer' },
  ]),
];

// The sandbox as started: the defaults of a real streaming service (streamed WAV header, chunked), speaking faster
// than its default (every length asserted is its own expectedDurationSeconds). 0.04 s a character, not 0.03: a length
// then never ends in 0.05 s, which a reply's 0.1 s rounding would put at the edge of its 0.05 s allowance.
const h = useFileHarness({ guilds, config: { voiceIdleTimeoutMs: 60_000 }, sandbox: { secondsPerCharacter: 0.04 } });
beforeEach(() => {
  h.sandbox.setVariants(DEFAULT_VARIANTS);
  h.sandbox.clearFaults();
});

let serial = 0;
/** A text no earlier test sent, so that the cache never answers in the service's place. */
const fresh = (words: string) => `${words} ${++serial}.`;

function fileOf(handle: InteractionHandle) {
  const file = handle.responses.find((r) => r.files.length > 0)?.files[0];
  if (!file) throw new Error('no file was posted');
  return file;
}

/** A WAV header every player reads: RIFF, exact RIFF and data sizes, nothing after the data. */
function expectExactWav(data: Buffer): void {
  expect(data.toString('ascii', 0, 4)).toBe('RIFF');
  expect(data.readUInt32LE(4)).toBe(data.length - 8);
  const parsed = parseWavHeader(data);
  if (!('header' in parsed)) throw new Error('WAV header cut short');
  const { dataOffset, dataBytes, format } = parsed.header;
  expect(dataBytes).toBe(data.length - dataOffset);
  expect((dataBytes ?? 0) % format.blockAlign).toBe(0);
}

/** The seconds the reply states ("Here is …, 1.2 s (wav)."). */
const statedSeconds = (content: string) => Number(/, ([\d.]+) s \(/.exec(content)?.[1] ?? 'NaN');

async function sayAsFile(text: string, format: 'wav' | 'mp3' = 'wav') {
  const { handle, content } = await runCommand(h, {
    guildId: GUILD,
    userId: WRITER,
    name: 'say',
    options: { text, voice: VOICE_ID, output: 'file', format },
  });
  expect(content).toMatch(/^Here is/);
  return { file: fileOf(handle), content };
}

const sayInVoice = (text: string) => sayAndHear(h, GUILD, SPEAKER, { text, voice: VOICE_ID });

async function expectHeardRight(text: string) {
  const heard = await sayInVoice(text);
  const expected = h.sandbox.expectedDurationSeconds(text);
  expect(Math.abs((pitchOf(heard) ?? 0) - (h.sandbox.voicePitchHz(VOICE_ID) ?? 0))).toBeLessThan(4);
  expect(heard.seconds).toBeGreaterThan(expected - 0.1);
  expect(heard.seconds).toBeLessThan(expected + 0.15);
}

describe('WAV header forms: the file posted has exact sizes and the reply its true duration', () => {
  const forms: WavHeaderForm[] = ['streamed', 'streamed-zero', 'rf64', 'exact'];
  it.each(forms)('%s', async (wavHeader) => {
    h.sandbox.setVariants({ wavHeader });
    const text = fresh(`A file whose header is ${wavHeader}`);
    const { file, content } = await sayAsFile(text);
    expectExactWav(file.data);
    const info = await analyseClip(file.data);
    const expected = h.sandbox.expectedDurationSeconds(text);
    expect(info.truncated).toBe(false);
    expect(Math.abs(info.durationSeconds - expected)).toBeLessThan(0.01);
    expect(Math.abs(statedSeconds(content) - expected)).toBeLessThanOrEqual(0.05);
  });

  it('the default sandbox streams the header a real service sends (so the test above is not vacuous)', async () => {
    const text = fresh('Straight from the service');
    await sayAsFile(text);
    const last = h.sandbox.requests.at(-1);
    expect(last?.status).toBe(200);
    expect(h.sandbox.variants.wavHeader).toBe('streamed');
  });
});

describe('sample rates other than 24 kHz', () => {
  it.each([16_000, 22_050, 44_100, 48_000])(
    '%d Hz: heard at the right pitch and length, and posted with that rate',
    async (sampleRate) => {
      h.sandbox.setVariants({ sampleRate });
      await expectHeardRight(fresh(`Heard at ${sampleRate}`));
      const text = fresh(`Posted at ${sampleRate}`);
      const { file } = await sayAsFile(text);
      expectExactWav(file.data);
      const info = await analyseClip(file.data);
      expect(info.sampleRate).toBe(sampleRate);
      expect(Math.abs(info.durationSeconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThan(0.01);
    },
  );
});

describe('content types and transfer', () => {
  const cases: Array<Partial<Variants>> = [
    { contentType: 'missing', transfer: 'chunked' },
    { contentType: 'generic', transfer: 'length' },
    { contentType: 'missing', transfer: 'length', wavHeader: 'exact' },
    { contentType: 'generic', transfer: 'chunked', wavHeader: 'rf64' },
  ];
  it.each(cases)('%o: heard right, and the WAV and MP3 files are valid', async (variant) => {
    h.sandbox.setVariants(variant);
    await expectHeardRight(fresh('Whatever the label says'));
    const wav = await sayAsFile(fresh('A labelled file'));
    expectExactWav(wav.file.data);
    const text = fresh('An MP3 file');
    const mp3 = await sayAsFile(text, 'mp3');
    const info = await analyseClip(mp3.file.data);
    expect(info.format).toBe('mp3');
    expect(info.truncated).toBe(false);
    expect(Math.abs(info.durationSeconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThan(0.06);
  });
});

describe('damaged MP3 from the service', () => {
  it.each(['cut-last-frame', 'xing-overcounts'] as const)(
    '%s: the file posted is whole, and the reply states its true length',
    async (mp3Damage) => {
      h.sandbox.setVariants({ mp3Damage });
      const text = fresh(`An MP3 that arrives ${mp3Damage}`);
      const { file, content } = await sayAsFile(text, 'mp3');
      const info = await analyseClip(file.data);
      expect(info.format).toBe('mp3');
      expect(info.truncated).toBe(false);
      expect(Math.abs(statedSeconds(content) - info.durationSeconds)).toBeLessThanOrEqual(0.05);
      // What arrived is shorter than the text's audio (by at most a few frames), never longer.
      expect(info.durationSeconds).toBeLessThanOrEqual(h.sandbox.expectedDurationSeconds(text) + 0.06);
      expect(info.durationSeconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds(text) - 0.2);
    },
  );
});

describe('voice clone answers', () => {
  const PITCH = 175;
  const clip = () =>
    Buffer.from(
      encodeWav(toneSamples({ pitchHz: PITCH, seconds: 3.5, amplitude: 0.5, sampleRate: 24_000 }), 24_000, 'exact'),
    );
  it.each(['audio', 'json', 'empty', 'json-only'] as const)(
    '%s body: the voice is saved and its first line heard in it',
    async (cloneBody) => {
      h.sandbox.setVariants({ cloneBody });
      h.discord.clearAudio(GUILD);
      const text = fresh('My new voice');
      const { handle } = await runCommand(h, {
        guildId: GUILD,
        userId: SPEAKER,
        name: 'clone',
        options: { text, name: `variant-${cloneBody}`, consent: true },
        attachments: [{ option: 'audio', data: clip(), filename: 'me.wav', contentType: 'audio/wav' }],
      });
      const done = await handle.waitFor((r) => /^(Spoke|The|Something)/.test(r.content ?? ''), 60_000);
      expect(done.content).toMatch(/^Spoke/);
      const heard = await h.discord.waitForAudio(GUILD, { minSeconds: 0.3 });
      const cloned =
        h.sandbox.requests.filter((r) => r.endpoint === 'voice-clone' && r.status === 200).at(-1)?.clonedVoiceId ?? '';
      expect(Math.abs((pitchOf(heard) ?? 0) - (h.sandbox.voicePitchHz(cloned) ?? 0))).toBeLessThan(4);
      expect(Math.abs(heard.seconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThan(0.15);
      // Audio in the clone's answer is spoken as it is; JSON or nothing costs one more request, for the same text.
      const followUps = h.sandbox.requests.filter((r) => r.endpoint === 'tts' && r.voice === cloned).length;
      expect(followUps).toBe(cloneBody === 'audio' ? 0 : 1);
    },
  );
});

describe('error bodies', () => {
  it.each(['json', 'html', 'text'] as const)(
    "%s: an unknown voice is refused with the service's own words",
    async (errorBody) => {
      h.sandbox.setVariants({ errorBody });
      const { content } = await runCommand(h, {
        guildId: GUILD,
        userId: WRITER,
        name: 'say',
        options: { text: fresh('Nobody speaks'), voice: 'voice-b-en-f-99', output: 'file' },
      });
      expect(content).toContain('The voice service refused this request');
      expect(content).toContain('unknown voice: voice-b-en-f-99');
      expect(content).not.toMatch(/<\/?[a-z]+>/i);
    },
  );

  it('empty: an unknown voice is still refused as a bad request, with its status', async () => {
    h.sandbox.setVariants({ errorBody: 'empty' });
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: WRITER,
      name: 'say',
      options: { text: fresh('Nobody at all'), voice: 'voice-b-en-f-98', output: 'file' },
    });
    expect(content).toContain('The voice service refused this request');
    expect(content).toContain('HTTP 400');
  });

  it.each(['html', 'empty'] as const)(
    '%s: a deactivated key is named as the cause, and nothing is spent',
    async (errorBody) => {
      h.sandbox.setVariants({ errorBody });
      h.sandbox.setKeyActive(h.apiKey, false);
      try {
        const billed = h.sandbox.charactersBilled();
        const { content } = await runCommand(h, {
          guildId: GUILD,
          userId: WRITER,
          name: 'say',
          options: { text: fresh('Locked out'), voice: VOICE_ID, output: 'file' },
        });
        expect(content).toContain('Voice API key is invalid or deactivated');
        expect(h.sandbox.charactersBilled()).toBe(billed);
      } finally {
        h.sandbox.setKeyActive(h.apiKey, true);
      }
    },
  );
});
