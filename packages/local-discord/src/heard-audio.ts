// What was heard in each guild, and in each of its voice channels apart: Opus frames decoded to 48 kHz stereo PCM,
// with arrival times. A guild's record holds what every bot said in any of its channels, in arrival order; a
// channel's what a listener in that channel heard.
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

/** Where audio is heard: a whole server (its ID), or one voice channel of it. */
export type AudioScope = string | { guildId: string; channelId: string };

/** The voice session a frame came from: which bot spoke, in which channel of which server. */
export interface Speaker {
  guildId: string;
  channelId: string;
  userId: string;
}

function scopeKey(scope: AudioScope): string {
  return typeof scope === 'string' ? scope : `${scope.guildId}/${scope.channelId}`;
}

export class HeardAudioStore {
  /** Seconds of decoded audio (and their packets) kept per guild and channel (FakeDiscordOptions.retain); the oldest go. */
  keepSeconds = Infinity;
  /** By scope key: a guild's ID, or guild/channel. */
  private readonly guilds = new Map<string, GuildAudio>();
  private readonly taps = new Map<string, Set<HeardTap>>();
  private readonly listeners = new Set<() => void>();
  private readonly waits: Waits;
  /**
   * Whether Discord forwards a bot's audio in a guild to its listeners: not when it is server-muted or suppressed
   * on a Stage (the audience), whose frames Discord drops.
   */
  private readonly forwards: (guildId: string, userId: string) => boolean;

  constructor(waits: Waits, forwards: (guildId: string, userId: string) => boolean = () => true) {
    this.waits = waits;
    this.forwards = forwards;
  }

  private guild(scope: AudioScope): GuildAudio {
    const key = scopeKey(scope);
    let audio = this.guilds.get(key);
    if (!audio) {
      audio = new GuildAudio();
      this.guilds.set(key, audio);
    }
    return audio;
  }

  /** The records a speaker's frame goes to: its server's, then its channel's. */
  private both(speaker: Speaker): [GuildAudio, GuildAudio] {
    return [this.guild(speaker.guildId), this.guild(speaker)];
  }

  setMode(speaker: Speaker, mode: string): void {
    for (const audio of this.both(speaker)) audio.encryptionMode = mode;
  }

  /** A bot's voice session negotiated DAVE: count from here what its listeners make of it. */
  startDave(speaker: Speaker): void {
    for (const audio of this.both(speaker)) audio.dave = new DaveCounters();
  }

  /** A bot's new voice session negotiated DAVE version 0: frames are heard as they come. */
  stopDave(speaker: Speaker): void {
    for (const audio of this.both(speaker)) audio.dave = undefined;
  }

  /** A frame from a DAVE session: heard (decoded) only when it is silence or a listener decrypted it. */
  pushDave(
    speaker: Speaker,
    ssrc: number,
    sequence: number,
    timestamp: number,
    receivedAtMs: number,
    verdict: FrameVerdict,
  ): void {
    if (!this.forwards(speaker.guildId, speaker.userId)) return;
    if (verdict.kind === 'silence') {
      this.push(speaker, ssrc, sequence, timestamp, receivedAtMs, SILENCE_FRAME);
      return;
    }
    const counters = this.both(speaker).map((audio) => (audio.dave ??= new DaveCounters()));
    for (const dave of counters) dave.firstPacketAtMs ??= receivedAtMs;
    if (verdict.kind === 'plaintext') {
      for (const dave of counters) {
        dave.plaintextFrames++;
        if (verdict.afterTransition) dave.plaintextAfterTransition++;
      }
    } else {
      for (const dave of counters) dave.e2eeFrames++;
      if (verdict.opus) {
        for (const dave of counters) dave.firstDecryptableAtMs ??= receivedAtMs;
        this.push(speaker, ssrc, sequence, timestamp, receivedAtMs, verdict.opus);
        return;
      }
      if (verdict.failed) for (const dave of counters) dave.decryptFailures++;
    }
    for (const listener of [...this.listeners]) listener();
  }

  decryptFailed(speaker: Speaker): void {
    for (const audio of this.both(speaker)) audio.decryptFailures++;
  }

  nonceRepeated(speaker: Speaker): void {
    for (const audio of this.both(speaker)) audio.nonceRepeats++;
  }

  /** A frame heard: decoded once (the guild record keeps one decoder per sender), kept in the guild's and the channel's. */
  push(speaker: Speaker, ssrc: number, sequence: number, timestamp: number, receivedAtMs: number, frame: Buffer): void {
    if (!this.forwards(speaker.guildId, speaker.userId)) return;
    const both = this.both(speaker);
    const silence = frame.equals(SILENCE_FRAME);
    const packet = { sequence, timestamp, receivedAtMs, bytes: frame.length, silence, ssrc };
    for (const audio of both) {
      audio.packets.push(packet);
      audio.lastPacketAt = receivedAtMs;
      this.trim(audio);
    }
    if (!silence) {
      const [guild] = both;
      let decoder = guild.decoders.get(ssrc);
      if (!decoder) {
        decoder = new OpusEncoder(SAMPLE_RATE, CHANNELS);
        guild.decoders.set(ssrc, decoder);
        // Each voice session of a bot speaks from a new SSRC: only the newest few still speak.
        if (Number.isFinite(this.keepSeconds)) keepNewest(guild.decoders, MAX_DECODERS);
      }
      let samples: Int16Array | undefined;
      try {
        const pcm = decoder.decode(frame);
        samples = new Int16Array(pcm.length >> 1);
        Buffer.from(samples.buffer).set(pcm.subarray(0, samples.length * 2));
      } catch {
        for (const audio of both) audio.decodeFailures++;
      }
      if (samples) {
        for (const audio of both) {
          audio.chunks.push(samples);
          audio.samples += samples.length;
          this.trim(audio);
        }
        for (const key of [speaker.guildId, scopeKey(speaker)])
          for (const tap of this.taps.get(key) ?? []) tap(samples);
      }
    }
    for (const listener of [...this.listeners]) listener();
  }

  /**
   * A frame only timed (its guild is not heard in full): arrival, RTP numbers and its sealed size, which is 3 bytes
   * for a silence frame (never end-to-end encrypted) and more for any audio frame. Counts as 20 ms heard.
   */
  pushTimed(
    speaker: Speaker,
    ssrc: number,
    sequence: number,
    timestamp: number,
    receivedAtMs: number,
    bytes: number,
  ): void {
    if (!this.forwards(speaker.guildId, speaker.userId)) return;
    const silence = bytes === SILENCE_FRAME.length;
    const packet = { sequence, timestamp, receivedAtMs, bytes, silence, ssrc };
    for (const audio of this.both(speaker)) {
      audio.packets.push(packet);
      audio.lastPacketAt = receivedAtMs;
      if (!silence) audio.timedSamples += FRAME_SAMPLES * CHANNELS;
      this.trim(audio);
    }
    for (const listener of [...this.listeners]) listener();
  }

  heard(scope: AudioScope): HeardAudio {
    return this.guild(scope).snapshot();
  }

  /** Calls `tap` with each chunk of this scope's audio as it is decoded, until the returned function is called. */
  tap(scope: AudioScope, tap: HeardTap): () => void {
    const key = scopeKey(scope);
    const taps = this.taps.get(key) ?? new Set<HeardTap>();
    this.taps.set(key, taps);
    taps.add(tap);
    return () => {
      taps.delete(tap);
      if (taps.size === 0) this.taps.delete(key);
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

  /** Forgets what was heard in the scope: for a guild, in each of its channels too. */
  clear(scope: AudioScope): void {
    const key = scopeKey(scope);
    for (const [k, audio] of this.guilds)
      if (k === key || (typeof scope === 'string' && k.startsWith(`${key}/`))) audio.clear();
  }

  packets(scope: AudioScope): HeardPacket[] {
    return [...this.guild(scope).packets];
  }

  waitForPacket(
    scope: AudioScope,
    predicate: (packet: HeardPacket) => boolean,
    timeoutMs: number,
  ): Promise<HeardPacket> {
    const audio = this.guild(scope);
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
      () => `${scopeKey(scope)}: no matching packet among ${audio.packets.length}`,
    );
  }

  /** Resolves once at least minSeconds of audio arrived and then no packet for quietMs. */
  waitFor(
    scope: AudioScope,
    opts: { minSeconds?: number; quietMs?: number; timeoutMs?: number } = {},
  ): Promise<HeardAudio> {
    const quietMs = opts.quietMs ?? 300;
    const minSeconds = opts.minSeconds ?? 0;
    const timeoutMs = opts.timeoutMs ?? WAIT_MS;
    const audio = this.guild(scope);
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
        `${scopeKey(scope)} heard ${((audio.samples + audio.timedSamples) / CHANNELS / SAMPLE_RATE).toFixed(3)} s in ${audio.packets.length} packets ` +
        `(wanted >= ${minSeconds} s then ${quietMs} ms of quiet; decrypt failures ${audio.decryptFailures}, decode failures ${audio.decodeFailures})`,
    );
  }
}
