// The senders the benchmarks compare SayBot's sender thread with: the main-thread voice clock (clock-sender.ts) and
// @discordjs/voice's own AudioPlayer (library-sender.ts), given to the bot as its voice plane's `sender`.
import type { OpusSettings } from '../../src/core/audio/codecs/opus-settings.ts';
import type { PacketSender } from '../../src/core/voice/packet-sender.ts';
import { ClockSender } from './clock-sender.ts';
import { LibrarySender } from './library-sender.ts';

export type VoiceSenderKind = 'worker' | 'clock' | 'library';

/** A bench bot's voice plane: production's (src/app/start-saybot.ts VOICE_PLANE) with the sender named. */
export interface BenchVoicePlane {
  encoding: Readonly<OpusSettings>;
  sender: VoiceSenderKind;
  startLead?: boolean;
}

/** What plays a bot's clips: undefined for SayBot's own sender thread. */
export function senderFor(kind: VoiceSenderKind): (() => PacketSender) | undefined {
  if (kind === 'clock') return () => new ClockSender();
  if (kind === 'library') return () => new LibrarySender();
  return undefined;
}
