// What each guild's voice channel heard: Opus frames decoded to 48 kHz stereo PCM, with arrival times.
// With DAVE, what a real listener plays: only end-to-end encrypted frames a listening member could decrypt (and
// silence frames, which pass); plaintext frames are counted, not heard.
import opus from '@discordjs/opus';
import type { FrameVerdict } from './dave/group.ts';
import { keepNewest } from './retention.ts';
import { WAIT_MS, type Waits } from './waits.ts';
import type { DaveHeardReport, HeardAudio, HeardPacket } from './types.ts';

const { OpusEncoder } = opus;
type Decoder = InstanceType<typeof OpusEncoder>;

const SAMPLE_RATE = 48_000;
const CHANNELS = 2;
const SILENCE_FRAME = Buffer.from([0xf8, 0xff, 0xfe]);
const FRAME_SAMPLES = 960;
/** Opus decoders kept per guild when retention is on (one per SSRC the bot spoke from; it gets a new one per join). */
const MAX_DECODERS = 8;

class GuildAudio {
  chunks: Int16Array[] = [];
  samples = 0;
  /** Samples of frames only timed, not decoded (FakeDiscordOptions.hearInFull): counted, not in the PCM. */
  timedSamples = 0;
  packets: HeardPacket[] = [];
  encryptionMode: string | undefined;
  decryptFailures = 0;
  decodeFailures = 0;
  /** Datagrams whose transport nonce was not above every one before it with the session's key (a reuse). */
  nonceRepeats = 0;
  lastPacketAt: number | undefined;
  /** Set while the bot's voice session uses DAVE (since the last clear or DAVE session start). */
  dave: DaveCounters | undefined;
  /** Opus decoding is stateful: one decoder per sender (SSRC). */
  readonly decoders = new Map<number, Decoder>();

  snapshot(): HeardAudio {
    const pcm = new Int16Array(this.samples);
    let offset = 0;
    for (const chunk of this.chunks) {
      pcm.set(chunk, offset);
      offset += chunk.length;
    }
    return {
      pcm,
      seconds: (this.samples + this.timedSamples) / CHANNELS / SAMPLE_RATE,
      packets: [...this.packets],
      encryptionMode: this.encryptionMode,
      decryptFailures: this.decryptFailures,
      decodeFailures: this.decodeFailures,
      nonceRepeats: this.nonceRepeats,
      ...(this.dave ? { dave: this.dave.report() } : {}),
    };
  }

  clear(): void {
    this.chunks = [];
    this.samples = 0;
    this.timedSamples = 0;
    this.packets = [];
    this.decryptFailures = 0;
    this.decodeFailures = 0;
    this.nonceRepeats = 0;
    this.lastPacketAt = undefined;
    if (this.dave) this.dave = new DaveCounters();
  }
}

class DaveCounters {
  e2eeFrames = 0;
  plaintextFrames = 0;
  plaintextAfterTransition = 0;
  decryptFailures = 0;
  firstPacketAtMs: number | undefined;
  firstDecryptableAtMs: number | undefined;

  report(): DaveHeardReport {
    return {
      e2eeFrames: this.e2eeFrames,
      plaintextFrames: this.plaintextFrames,
      plaintextAfterTransition: this.plaintextAfterTransition,
      decryptFailures: this.decryptFailures,
      firstPacketToFirstDecryptableMs:
        this.firstPacketAtMs !== undefined && this.firstDecryptableAtMs !== undefined
          ? this.firstDecryptableAtMs - this.firstPacketAtMs
          : undefined,
    };
  }
}

/** Live audio as it is heard: each decoded chunk, 48 kHz stereo interleaved s16. */
export type HeardTap = (pcm: Int16Array) => void;

export class HeardAudioStore {
  /** Seconds of decoded audio (and their packets) kept per guild (FakeDiscordOptions.retain); the oldest go. */
  keepSeconds = Infinity;
  private readonly guilds = new Map<string, GuildAudio>();
  private readonly taps = new Map<string, Set<HeardTap>>();
  private readonly listeners = new Set<() => void>();
  private readonly waits: Waits;
  /**
   * Whether Discord forwards the bot's audio in a guild to its listeners: not when it is server-muted or suppressed
   * on a Stage (the audience), whose frames Discord drops.
   */
  private readonly forwards: (guildId: string) => boolean;

  constructor(waits: Waits, forwards: (guildId: string) => boolean = () => true) {
    this.waits = waits;
    this.forwards = forwards;
  }

  private guild(guildId: string): GuildAudio {
    let audio = this.guilds.get(guildId);
    if (!audio) {
      audio = new GuildAudio();
      this.guilds.set(guildId, audio);
    }
    return audio;
  }

  setMode(guildId: string, mode: string): void {
    this.guild(guildId).encryptionMode = mode;
  }

  /** The bot's voice session in this guild negotiated DAVE: count from here what its listeners make of it. */
  startDave(guildId: string): void {
    this.guild(guildId).dave = new DaveCounters();
  }

  /** The bot's new voice session in this guild negotiated DAVE version 0: frames are heard as they come. */
  stopDave(guildId: string): void {
    this.guild(guildId).dave = undefined;
  }

  /** A frame from a DAVE session: heard (decoded) only when it is silence or a listener decrypted it. */
  pushDave(
    guildId: string,
    ssrc: number,
    sequence: number,
    timestamp: number,
    receivedAtMs: number,
    verdict: FrameVerdict,
  ): void {
    if (!this.forwards(guildId)) return;
    const audio = this.guild(guildId);
    const dave = (audio.dave ??= new DaveCounters());
    if (verdict.kind === 'silence') {
      this.push(guildId, ssrc, sequence, timestamp, receivedAtMs, SILENCE_FRAME);
      return;
    }
    dave.firstPacketAtMs ??= receivedAtMs;
    if (verdict.kind === 'plaintext') {
      dave.plaintextFrames++;
      if (verdict.afterTransition) dave.plaintextAfterTransition++;
    } else {
      dave.e2eeFrames++;
      if (verdict.opus) {
        dave.firstDecryptableAtMs ??= receivedAtMs;
        this.push(guildId, ssrc, sequence, timestamp, receivedAtMs, verdict.opus);
        return;
      }
      if (verdict.failed) dave.decryptFailures++;
    }
    for (const listener of [...this.listeners]) listener();
  }

  decryptFailed(guildId: string): void {
    this.guild(guildId).decryptFailures++;
  }

  nonceRepeated(guildId: string): void {
    this.guild(guildId).nonceRepeats++;
  }

  push(guildId: string, ssrc: number, sequence: number, timestamp: number, receivedAtMs: number, frame: Buffer): void {
    if (!this.forwards(guildId)) return;
    const audio = this.guild(guildId);
    const silence = frame.equals(SILENCE_FRAME);
    audio.packets.push({ sequence, timestamp, receivedAtMs, bytes: frame.length, silence, ssrc });
    audio.lastPacketAt = receivedAtMs;
    this.trim(audio);
    if (!silence) {
      let decoder = audio.decoders.get(ssrc);
      if (!decoder) {
        decoder = new OpusEncoder(SAMPLE_RATE, CHANNELS);
        audio.decoders.set(ssrc, decoder);
        // Each voice session of the bot speaks from a new SSRC: only the newest few still speak.
        if (Number.isFinite(this.keepSeconds)) keepNewest(audio.decoders, MAX_DECODERS);
      }
      try {
        const pcm = decoder.decode(frame);
        const samples = new Int16Array(pcm.length >> 1);
        Buffer.from(samples.buffer).set(pcm.subarray(0, samples.length * 2));
        audio.chunks.push(samples);
        audio.samples += samples.length;
        this.trim(audio);
        for (const tap of this.taps.get(guildId) ?? []) tap(samples);
      } catch {
        audio.decodeFailures++;
      }
    }
    for (const listener of [...this.listeners]) listener();
  }

  /**
   * A frame only timed (its guild is not heard in full): arrival, RTP numbers and its sealed size, which is 3 bytes
   * for a silence frame (never end-to-end encrypted) and more for any audio frame. Counts as 20 ms heard.
   */
  pushTimed(
    guildId: string,
    ssrc: number,
    sequence: number,
    timestamp: number,
    receivedAtMs: number,
    bytes: number,
  ): void {
    if (!this.forwards(guildId)) return;
    const audio = this.guild(guildId);
    const silence = bytes === SILENCE_FRAME.length;
    audio.packets.push({ sequence, timestamp, receivedAtMs, bytes, silence, ssrc });
    audio.lastPacketAt = receivedAtMs;
    if (!silence) audio.timedSamples += FRAME_SAMPLES * CHANNELS;
    this.trim(audio);
    for (const listener of [...this.listeners]) listener();
  }

  heard(guildId: string): HeardAudio {
    return this.guild(guildId).snapshot();
  }

  /** Calls `tap` with each chunk of this guild's audio as it is decoded, until the returned function is called. */
  tap(guildId: string, tap: HeardTap): () => void {
    const taps = this.taps.get(guildId) ?? new Set<HeardTap>();
    this.taps.set(guildId, taps);
    taps.add(tap);
    return () => {
      taps.delete(tap);
      if (taps.size === 0) this.taps.delete(guildId);
    };
  }

  /** Keeps keepSeconds of decoded audio and as many packets as that holds (50 a second). */
  private trim(audio: GuildAudio): void {
    if (!Number.isFinite(this.keepSeconds)) return;
    const most = Math.ceil(this.keepSeconds * SAMPLE_RATE * CHANNELS);
    while (audio.samples > most && audio.chunks.length > 1) audio.samples -= audio.chunks.shift()?.length ?? 0;
    const packets = Math.ceil(this.keepSeconds * 50);
    if (audio.packets.length > 2 * packets) audio.packets.splice(0, audio.packets.length - packets);
  }

  clear(guildId: string): void {
    this.guild(guildId).clear();
  }

  packets(guildId: string): HeardPacket[] {
    return [...this.guild(guildId).packets];
  }

  waitForPacket(guildId: string, predicate: (packet: HeardPacket) => boolean, timeoutMs: number): Promise<HeardPacket> {
    const audio = this.guild(guildId);
    // Packets only ever get appended (or cleared), so each check resumes where the previous one stopped.
    let checked = 0;
    const check = (): HeardPacket | undefined => {
      if (checked > audio.packets.length) checked = 0;
      for (; checked < audio.packets.length; checked++) {
        const packet = audio.packets[checked];
        if (packet && predicate(packet)) return packet;
      }
      return undefined;
    };
    return this.waits.wait(
      check,
      (notify) => {
        this.listeners.add(notify);
        return () => this.listeners.delete(notify);
      },
      timeoutMs,
      () => `guild ${guildId}: no matching packet among ${audio.packets.length}`,
    );
  }

  /** Resolves once at least minSeconds of audio arrived and then no packet for quietMs. */
  waitFor(
    guildId: string,
    opts: { minSeconds?: number; quietMs?: number; timeoutMs?: number } = {},
  ): Promise<HeardAudio> {
    const quietMs = opts.quietMs ?? 300;
    const minSeconds = opts.minSeconds ?? 0;
    const timeoutMs = opts.timeoutMs ?? WAIT_MS;
    const audio = this.guild(guildId);
    const check = (): HeardAudio | undefined => {
      const samples = audio.samples + audio.timedSamples;
      const seconds = samples / CHANNELS / SAMPLE_RATE;
      if (samples === 0 || seconds < minSeconds || audio.lastPacketAt === undefined) return undefined;
      return performance.now() - audio.lastPacketAt >= quietMs ? audio.snapshot() : undefined;
    };
    return this.waits.wait(
      check,
      (notify) => {
        // Quiet is the absence of packets, so poll as well as listen.
        const timer = setInterval(notify, Math.max(5, Math.min(50, quietMs / 4)));
        this.listeners.add(notify);
        return () => {
          clearInterval(timer);
          this.listeners.delete(notify);
        };
      },
      timeoutMs,
      () =>
        `guild ${guildId} heard ${((audio.samples + audio.timedSamples) / CHANNELS / SAMPLE_RATE).toFixed(3)} s in ${audio.packets.length} packets ` +
        `(wanted >= ${minSeconds} s then ${quietMs} ms of quiet; decrypt failures ${audio.decryptFailures}, decode failures ${audio.decodeFailures})`,
    );
  }
}
