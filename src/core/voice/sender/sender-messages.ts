// What the main thread and the sender thread (sender-worker.ts) say to each other. A "voice" is one UDP socket the
// sender owns for one voice session (from its IP discovery until the library lets the session go); a "clip" is one
// clip's packets on a voice, numbered from 0 so that either side can say where the other should go on from.

/**
 * One clip's packets, DAVE-sealed already, from its packet `first` on, as the main thread hands them to its side of
 * the sender (SenderThread.queue), which writes them into the voice's ring (./packet-ring.ts).
 */
export interface PacketRun {
  voice: number;
  clip: number;
  first: number;
  packets: Uint8Array[];
  /**
   * The voice's DAVE generation they were sealed in (SenderThread.generation): a packet of a generation below the
   * voice's barrier was sealed before a transition executed and is never sent (its copy sealed again follows).
   */
  generation: number;
}

/** The slots of a voice's barrier (ToSender 'open'). */
export const VoiceBarrier = {
  /** The voice's DAVE generation: packets of a lower one were sealed before a transition that has executed. */
  generation: 0,
  /** 1 while the thread checks a packet's generation and sends it (SenderThread.transition waits that out). */
  sending: 1,
  /**
   * The clip the thread is sending and the number of its next packet, written as a packet passes the generation check
   * (before it goes): a DAVE transition seals copies from there on, never of a packet already sent (worker-clip.ts).
   */
  clip: 2,
  next: 3,
  length: 4,
} as const;

export type ToSender =
  /**
   * Opens a socket for a new voice session and runs IP discovery to the voice server at ip:port. `barrier` (shared
   * memory, VoiceBarrier's two Int32s) holds the voice's DAVE generation, raised by the main thread in the very turn
   * a DAVE transition executes (the thread reads it before each packet, with no message in between), and whether
   * the thread is sending a packet this instant. `ring` (./packet-ring.ts createRing) is where the main thread writes
   * the voice's packets and each clip's end, in order.
   */
  | {
      type: 'open';
      voice: number;
      ip: string;
      port: number;
      ssrc: number;
      barrier: Int32Array;
      ring: SharedArrayBuffer;
    }
  /** The session's transport key and RTP starting point (session description); a new key starts a new nonce count. */
  | { type: 'keys'; voice: number; mode: string; key: Uint8Array; sequence: number; timestamp: number }
  /**
   * The voice's ring has packets and the thread slept with nothing to read (it said so in the ring): once a clip's
   * start or after a pause, never a packet's. A clip's end comes through the ring (closing silence follows its last
   * packet, then `done` 'ended'), as do copies sealed again after a DAVE transition (they follow those they replace).
   */
  | { type: 'wake'; voice: number }
  /** Drops the clip's packets not yet sent at once, without closing silence; `done` ('stopped') says how many went. */
  | { type: 'stop'; voice: number; clip: number }
  /** Holds the voice where it is (its session is not ready), or lets it go on. */
  | { type: 'hold'; voice: number; held: boolean }
  /** The session is over: its socket closes, its queue is dropped (`done` 'closed' for a clip under way). */
  | { type: 'close'; voice: number }
  /** Asks for the sender's figures (SenderStats), and starts them afresh after. */
  | { type: 'stats'; reset: boolean };

/** How far one clip has gone: packets of it sent, and slots in a row it had none to send (silence instead). */
export interface ClipProgress {
  voice: number;
  clip: number;
  sent: number;
  idleSlots: number;
}

/** What the sender measured since its figures were last reset (for the benchmark). */
export interface SenderStats {
  /** The thread that sent them (never the main thread's, 0). */
  threadId: number;
  packets: number;
  silence: number;
  /** Slots a clip under way had no packet queued (it sent silence). */
  underruns: number;
  /** How late each packet was sent after it was due, ms (at most the last 20,000). */
  lateMs: number[];
  /** Slots given up because the sender itself was held up longer than it catches up. */
  skippedSlots: number;
}

export type FromSender =
  /** Sent once as the thread starts: its kernel thread ID where the system names one (Linux). */
  | { type: 'started'; tid: number | undefined }
  | { type: 'discovered'; voice: number; ip: string; port: number }
  | { type: 'failed'; voice: number; message: string }
  /** Progress of the clips that moved since the last report (and a heartbeat when none did). */
  | { type: 'report'; clips: ClipProgress[] }
  /** A clip left its voice: after its closing silence, stopped, or its voice closed. */
  | { type: 'done'; voice: number; clip: number; sent: number; how: 'ended' | 'stopped' | 'closed' }
  /** The voice's socket failed or closed by itself. */
  | { type: 'lost'; voice: number; message: string }
  | { type: 'stats'; stats: SenderStats };
