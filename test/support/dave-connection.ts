// A voice connection shaped as @discordjs/voice keeps one when ready, for the sender's tests: its DAVE session tags
// each frame with its epoch (the last byte), so that a test reads from a payload which keys sealed it.
import { EventEmitter } from 'node:events';
import { NetworkingStatusCode, VoiceConnectionStatus, type VoiceConnection } from '@discordjs/voice';
import { AES_GCM_MODE } from '@saybot/local-discord/rtp-decrypt.ts';

export function daveConnection(key: Uint8Array) {
  const udp = { send: () => undefined };
  const dave = {
    epoch: 1,
    protocolVersion: 1,
    session: { ready: true },
    lastTransitionId: 1,
    reinitializing: false,
    encrypt(frame: Buffer) {
      return Buffer.concat([frame, Buffer.from([this.epoch])]);
    },
  };
  const connectionData = {
    encryptionMode: AES_GCM_MODE,
    secretKey: key,
    sequence: 0,
    timestamp: 0,
    nonce: 0,
    ssrc: 42,
    speaking: false,
    packetsPlayed: 0,
  };
  /** Its voice gateway socket: a test plays the library's handlers on its 'packet' and 'binary'. */
  const voiceGateway = new EventEmitter();
  const networking = Object.assign(new EventEmitter(), {
    state: { code: NetworkingStatusCode.Ready, connectionData, udp, dave, ws: voiceGateway },
  });
  const ready = { status: VoiceConnectionStatus.Ready, networking };
  const emitter = new EventEmitter() as EventEmitter & { state: unknown; setSpeaking(on: boolean): void };
  emitter.state = ready;
  emitter.setSpeaking = (on: boolean) => {
    connectionData.speaking = on;
  };
  let isReady = true;
  return {
    udp,
    dave,
    voiceGateway,
    emitter,
    connection: emitter as unknown as VoiceConnection,
    get ready() {
      return isReady;
    },
    /** Ready, or connecting again (a state change the clip hears). */
    setReady(on: boolean) {
      isReady = on;
      emitter.state = on ? ready : { status: VoiceConnectionStatus.Connecting };
      emitter.emit('stateChange', {}, emitter.state);
    },
    /** A DAVE transition executed: frames sealed from now carry `epoch`. */
    transition(epoch = dave.epoch + 1) {
      dave.epoch = epoch;
      emitter.emit('transitioned', epoch);
    },
  };
}
