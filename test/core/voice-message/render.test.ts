// The voice-message renderer with real parts: the sandbox's audio over real HTTP, the player's packet path, the
// audio cache on disk, and the local Discord's checks of what Discord accepts as a voice message.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import opus from '@discordjs/opus';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENCODER_PRE_SKIP } from '../../../src/core/audio/codecs/ogg-opus-writer.ts';
import { encodeMonoOpus } from '../../support/mono-opus.ts';
import { createOpusPacketStream } from '../../../src/core/cache/audio-fill.ts';
import { waveformValues } from '../../support/waveform.ts';
import { AudioCache } from '../../../src/core/cache/audio-cache.ts';
import { partCacheKey } from '../../../src/core/sourcing/part-request.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';
import { PartSource, orderedPart } from '../../../src/core/sourcing/part-source.ts';
import { partPackets } from '../../../src/core/cache/audio-fill.ts';
import type { SpeechRequest } from '../../../src/core/order/pipeline.ts';
import {
  renderVoiceMessage,
  VoiceMessageBuilder,
  VoiceMessageError,
  type VoiceMessage,
} from '../../../src/core/voice-message/render.ts';
import type { UploadedFile } from '@saybot/local-discord/body.ts';
import { checkMessageBody } from '@saybot/local-discord/messages.ts';
import { IS_VOICE_MESSAGE } from '@saybot/local-discord/voice-message.ts';
import { audibleEndSeconds, hearVoiceMessage, pageFlags } from './helpers.ts';
import { START_PACING, useSandbox } from '../../support/speech-rig.ts';
import { Accounting } from '../../../src/core/quota/accounting.ts';
import { MONEY_RULES } from '../../../src/core/quota/money.ts';
import { openSqliteStore } from '../../../src/app/store.ts';
import type { Store } from '../../../src/core/store/types.ts';

const RATE = 48000;
const VOICE = 'voice-b-en-m-02'; // 200 Hz
const tts = (text: string, voice = VOICE, format: 'wav' | 'mp3' = 'wav'): SpeechRequest => ({
  kind: 'tts',
  text,
  voice,
  format,
});
const waveformBytes = (message: VoiceMessage) => [...Buffer.from(message.waveform, 'base64')];

/** What the local Discord says of this voice message as a message body; undefined = accepted. */
function discordVerdict(message: VoiceMessage): number | undefined {
  const file: UploadedFile = { index: 0, name: 'voice-message.ogg', contentType: 'audio/ogg', data: message.ogg };
  const body = {
    flags: IS_VOICE_MESSAGE,
    attachments: [{ id: 0, filename: file.name, duration_secs: message.durationSecs, waveform: message.waveform }],
  };
  return checkMessageBody(body, [file], true)?.body.code;
}

const rig = useSandbox({}, START_PACING);

// Every paid call goes through the books: an in-memory store's, with no budgets.
let store: Store;
beforeEach(() => {
  store = openSqliteStore(':memory:');
});
afterEach(() => store.close());
const books = () =>
  new Accounting({
    store,
    rules: MONEY_RULES,
    budgets: { guildMonthlyChars: 0, memberDailyChars: 0, memberCooldownSeconds: 0 },
    planCharacterLimit: 300_000,
    logger: silentLogger,
  });

describe('renderVoiceMessage from the Voice API (no cache)', () => {
  let source: PartSource;
  beforeEach(() => {
    source = new PartSource({ client: rig.client, logger: silentLogger, accounting: books() });
  });
  afterEach(() => source.close());

  const render = (request: SpeechRequest, texts: string[]) =>
    renderVoiceMessage(
      (async function* () {
        for (const text of texts)
          yield partPackets(await orderedPart(source, request, text, new AbortController().signal), source.encoding);
      })(),
    );

  it.each(['wav', 'mp3'] as const)(
    "is heard at the voice's pitch and length, its duration within 20 ms of the audio (%s)",
    async (format) => {
      const text = 'A voice message heard back from its Ogg file.';
      const message = await render(tts(text, VOICE, format), [text]);
      expect(discordVerdict(message)).toBeUndefined();

      const heard = await hearVoiceMessage(message.ogg);
      expect(heard.channels).toBe(1);
      expect(heard.preSkip).toBe(ENCODER_PRE_SKIP);
      expect(Math.abs((heard.pitchHz ?? 0) - (rig.sandbox.voicePitchHz(VOICE) ?? -1))).toBeLessThan(3);
      // The declared duration is the file's own, and the sound fills it: it ends within 20 ms of it.
      expect(heard.declaredSeconds).toBeCloseTo(message.durationSecs, 6);
      expect(Math.abs(audibleEndSeconds(heard.samples) - message.durationSecs)).toBeLessThan(0.02);
      // The service's audio, less at most one frame the player's encoder leaves out at the end, and its lookahead.
      const expected = rig.sandbox.expectedDurationSeconds(text);
      expect(message.durationSecs).toBeLessThanOrEqual(expected + 0.001);
      expect(message.durationSecs).toBeGreaterThan(expected - 0.02 - ENCODER_PRE_SKIP / RATE);

      const bars = waveformBytes(message);
      expect(bars.length).toBe(Math.ceil(message.durationSecs / 0.1));
      // The sandbox speaks a steady tone: every bar but the faded edges is loud.
      expect(bars.slice(1, -1).every((v) => v > 180)).toBe(true);
    },
  );

  it('joins a reply of two parts into one voice message (one stream, both parts heard in order)', async () => {
    const first = 'The first part of a longer reply.';
    const second = 'And the second part, a little longer than the first.';
    const message = await render(tts(`${first} ${second}`), [first, second]);
    expect(discordVerdict(message)).toBeUndefined();
    const flags = pageFlags(message.ogg);
    expect(flags.filter((f) => f & 0x02)).toHaveLength(1);
    expect(flags.at(-1)).toBe(0x04);
    const heard = await hearVoiceMessage(message.ogg);
    const expected = rig.sandbox.expectedDurationSeconds(first) + rig.sandbox.expectedDurationSeconds(second);
    expect(Math.abs(heard.seconds - expected)).toBeLessThan(2 * (0.02 + ENCODER_PRE_SKIP / RATE));
    expect(Math.abs(audibleEndSeconds(heard.samples) - message.durationSecs)).toBeLessThan(0.02);
    expect(Math.abs((heard.pitchHz ?? 0) - 200)).toBeLessThan(3);
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(2);
  });
});

describe('renderVoiceMessage from the audio cache', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'saybot-voice-message-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const openSource = async () => {
    const cache = await AudioCache.open({ dir, maxBytes: 50 * 1024 * 1024, logger: silentLogger });
    return { cache, source: new PartSource({ client: rig.client, logger: silentLogger, accounting: books(), cache }) };
  };
  const renderOne = async (source: PartSource, request: SpeechRequest) =>
    renderVoiceMessage([
      partPackets(await orderedPart(source, request, request.text, new AbortController().signal), source.encoding),
    ]);

  it('posts the same Ogg for a cached reply, with no call to the Voice API', async () => {
    const request = tts('Cached once, posted twice.');
    const first = await openSource();
    const fresh = await renderOne(first.source, request);
    await first.source.close(); // the part is written to the cache with the packets the renderer drove
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1);

    const second = await openSource();
    const stored = await second.cache.get(
      partCacheKey({ kind: 'tts', text: request.text, voice: VOICE, format: 'wav' }, request.text),
      VOICE,
    );
    expect(stored?.packets?.length).toBeGreaterThan(0);
    const again = await renderOne(second.source, request);
    await second.source.close();
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1);
    expect(again.ogg.equals(fresh.ogg)).toBe(true);
    expect(again).toEqual(fresh);
    expect((await hearVoiceMessage(again.ogg)).packets).toEqual(stored?.packets);
  });

  it('uses the cached packets as they are, not the cached bytes encoded again', async () => {
    // An entry whose packets (a 330 Hz tone) differ from its bytes (a 220 Hz WAV): the message must sound at 330 Hz.
    const request = tts('Packets, not bytes.');
    const { cache } = await openSource();
    const packets = encodeMonoOpus(toneSamples({ pitchHz: 330, seconds: 1, amplitude: 0.5, sampleRate: RATE })).packets;
    const audio = Buffer.from(
      encodeWav(toneSamples({ pitchHz: 220, seconds: 1, amplitude: 0.5, sampleRate: RATE }), RATE),
    );
    await cache.put(
      partCacheKey({ kind: 'tts', text: request.text, voice: VOICE, format: 'wav' }, request.text),
      VOICE,
      { format: 'wav', audio: [audio], packets },
      cache.generation(VOICE),
    );
    await cache.close();

    const { source } = await openSource();
    const message = await renderOne(source, request);
    await source.close();
    expect(rig.sandbox.requests).toHaveLength(0);
    const heard = await hearVoiceMessage(message.ogg);
    expect(heard.packets).toEqual(packets);
    expect(Math.abs((heard.pitchHz ?? 0) - 330)).toBeLessThan(3);
  });
});

describe('VoiceMessageBuilder', () => {
  it('draws the waveform where the speech is: loud bars for speech, empty ones for a silent gap', async () => {
    // 0.6 s of voice, 0.8 s of silence, 0.6 s of voice, through the player's path (WAV -> 48 kHz -> Opus).
    const voice = toneSamples({ pitchHz: 200, seconds: 0.6, amplitude: 0.4, sampleRate: RATE });
    const pcm = new Int16Array(voice.length * 2 + 0.8 * RATE);
    pcm.set(voice);
    pcm.set(voice, voice.length + 0.8 * RATE);
    const packets = createOpusPacketStream(Readable.from([Buffer.from(encodeWav(pcm, RATE))]), 'wav');
    const message = await renderVoiceMessage([packets]);
    const bars = waveformBytes(message);
    expect(bars.length).toBeGreaterThanOrEqual(19);
    expect(bars.length).toBeLessThanOrEqual(20);
    // Bars 0-5 speech, 6-13 silence, 14-19 speech (100 ms each); the edges of each stretch may hold a fade.
    expect(bars.slice(0, 5).every((v) => v > 150)).toBe(true);
    expect(bars.slice(7, 13).every((v) => v < 30)).toBe(true);
    expect(bars.slice(15, 19).every((v) => v > 150)).toBe(true);
  });

  it('measures the levels as waveformValues does on the decoded audio', async () => {
    const pcm = new Int16Array(3 * RATE);
    const loud = toneSamples({ pitchHz: 300, seconds: 1, amplitude: 0.6, sampleRate: RATE });
    const quiet = toneSamples({ pitchHz: 300, seconds: 1, amplitude: 0.03, sampleRate: RATE });
    pcm.set(loud);
    pcm.set(quiet, 2 * RATE);
    const { packets } = encodeMonoOpus(pcm);
    const message = await renderVoiceMessage([packets]);
    const heard = await hearVoiceMessage(message.ogg);
    const reference = waveformValues(
      Int16Array.from(heard.samples, (s) => Math.round(s * 32767)),
      RATE,
    );
    const bars = waveformBytes(message);
    expect(bars).toHaveLength(reference.length);
    bars.forEach((value, i) => expect(Math.abs(value - (reference[i] ?? 0))).toBeLessThanOrEqual(2));
    expect(bars[5]).toBeGreaterThan((bars[25] ?? 255) + 50);
  });

  it('keeps at most 256 bars for a long message, each over a longer stretch', async () => {
    const pcm = new Int16Array(40 * RATE);
    pcm.set(toneSamples({ pitchHz: 250, seconds: 20, amplitude: 0.5, sampleRate: RATE }), 20 * RATE);
    const message = await renderVoiceMessage([encodeMonoOpus(pcm).packets]);
    const bars = waveformBytes(message);
    expect(bars).toHaveLength(256);
    expect(bars.slice(0, 125).every((v) => v === 0)).toBe(true);
    expect(bars.slice(131, 255).every((v) => v > 180)).toBe(true);
    // encodeMonoOpus pads its last frame: the file is that much longer, all of it decodable (silence).
    expect(message.durationSecs).toBeGreaterThanOrEqual(40);
    expect(message.durationSecs).toBeLessThan(40 + 0.02);
    expect(discordVerdict(message)).toBeUndefined();
  });

  it('writes stereo-coded packets (the player before mono) as a mono message heard at the same pitch', async () => {
    const mono = toneSamples({ pitchHz: 280, seconds: 1, amplitude: 0.5, sampleRate: RATE });
    const stereo = new Int16Array(mono.length * 2);
    mono.forEach((s, i) => {
      stereo[2 * i] = s;
      stereo[2 * i + 1] = s;
    });
    const encoder = new opus.OpusEncoder(RATE, 2);
    const packets: Buffer[] = [];
    for (let at = 0; at < mono.length; at += 960)
      packets.push(encoder.encode(Buffer.from(stereo.buffer, at * 4, 960 * 4)));
    expect(packets.every((p) => ((p[0] ?? 0) & 0x04) !== 0)).toBe(true); // TOC: stereo
    const message = await renderVoiceMessage([packets]);
    const heard = await hearVoiceMessage(message.ogg);
    expect(heard.channels).toBe(1);
    expect(Math.abs((heard.pitchHz ?? 0) - 280)).toBeLessThan(3);
    expect(discordVerdict(message)).toBeUndefined();
  });

  it('pages packets too large for 50 to a page (lacing limit) and still makes a valid file', async () => {
    // Stereo noise at 510 kb/s, constant bitrate: every packet is 1275 bytes, six lacing values each.
    const encoder = new opus.OpusEncoder(RATE, 2);
    encoder.setBitrate(510_000);
    encoder.applyEncoderCTL(4006, 0); // OPUS_SET_VBR 0
    let seed = 1;
    const noise = Int16Array.from({ length: 2 * 2 * RATE }, () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return (seed % 60000) - 30000;
    });
    const packets: Buffer[] = [];
    for (let at = 0; at < noise.length; at += 1920)
      packets.push(encoder.encode(Buffer.from(noise.buffer, at * 2, 1920 * 2)));
    expect(Math.max(...packets.map((p) => p.length))).toBe(1275);
    const message = await renderVoiceMessage([packets]);
    expect(discordVerdict(message)).toBeUndefined();
    expect((await hearVoiceMessage(message.ogg)).packets).toEqual(packets);
  });

  it('refuses to make a message of no audio, or of a packet that does not decode', async () => {
    await expect(renderVoiceMessage([])).rejects.toMatchObject({ name: 'VoiceMessageError', code: 'no-audio' });
    // A code 3 packet that announces no frames: libopus refuses it.
    await expect(renderVoiceMessage([[Buffer.from([0xfb, 0x00])]])).rejects.toMatchObject({
      name: 'VoiceMessageError',
      code: 'bad-packet',
    });
    const builder = new VoiceMessageBuilder();
    expect(() => builder.add(Buffer.from([0x03]))).toThrow(VoiceMessageError);
    expect(builder.samples).toBe(0);
  });

  it('lets the event loop turn while it decodes a long message already in memory (a cache hit)', async () => {
    const packets = encodeMonoOpus(
      toneSamples({ pitchHz: 200, seconds: 10, amplitude: 0.5, sampleRate: RATE }),
    ).packets;
    let turns = 0;
    let done = false;
    const turn = () => {
      turns++;
      if (!done) setImmediate(turn);
    };
    setImmediate(turn);
    await renderVoiceMessage([packets]);
    done = true;
    // One turn per second of audio at least: other guilds' voice keeps its 20 ms cycle.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(packets.length / 50) - 1);
  });

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('member left'));
    await expect(
      renderVoiceMessage([[Buffer.from([0xf8, 0xff, 0xfe])]], { signal: controller.signal }),
    ).rejects.toThrow('member left');
  });
});
