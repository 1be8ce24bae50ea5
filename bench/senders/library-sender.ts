// The library's own way to play clips (the benchmark's baseline): @discordjs/voice's AudioPlayer and its shared cycle.
import type { Readable } from 'node:stream';
import {
  AudioPlayerStatus,
  NoSubscriberBehavior,
  StreamType,
  createAudioPlayer,
  createAudioResource,
  type AudioPlayer,
  type AudioResource,
  type VoiceConnection,
} from '@discordjs/voice';
import {
  MAX_MISSED_FRAMES,
  type ClipEvents,
  type PlayingClip,
  type PacketSender,
} from '../../src/core/voice/packet-sender.ts';

interface Current {
  resource: AudioResource;
  events: ClipEvents;
  started: boolean;
  error?: unknown;
}

export class LibrarySender implements PacketSender {
  readonly #audio: AudioPlayer;
  #current: Current | undefined;

  constructor() {
    this.#audio = createAudioPlayer({
      behaviors: { noSubscriber: NoSubscriberBehavior.Pause, maxMissedFrames: MAX_MISSED_FRAMES },
    });
    // A stream error then Idle: the clip ends on Idle matched by its resource, so a late event ends no later clip.
    this.#audio.on('error', (error) => {
      const current = this.#current;
      if (current && error.resource === current.resource) current.error ??= error;
    });
    this.#audio.on('stateChange', (oldState, newState) => {
      const current = this.#current;
      if (!current) return;
      if (newState.status === AudioPlayerStatus.Playing && newState.resource === current.resource && !current.started) {
        current.started = true;
        current.events.started();
      }
      if (
        newState.status === AudioPlayerStatus.Idle &&
        oldState.status !== AudioPlayerStatus.Idle &&
        oldState.resource === current.resource
      ) {
        this.#current = undefined;
        current.events.ended(current.error);
      }
    });
  }

  play(connection: VoiceConnection, stream: Readable, events: ClipEvents): PlayingClip {
    const state = connection.state;
    if (!('subscription' in state && state.subscription?.player === this.#audio)) connection.subscribe(this.#audio);
    const resource = createAudioResource(stream, { inputType: StreamType.Opus });
    const current: Current = { resource, events, started: false };
    this.#current = current;
    this.#audio.play(resource);
    return {
      get playedMs() {
        return resource.playbackDuration;
      },
      stop: () => this.#current === current && this.#audio.stop(true),
    };
  }

  destroy(): void {
    this.#audio.stop(true);
  }
}
