// What the main thread and the sender thread (sender-worker.ts) say to each other. A "connection" (a sender
// connection) is one UDP socket for one voice session; a "clip" is one clip's packets on a connection, numbered from 0.

/** One clip's DAVE-sealed packets from packet `first` on, written into the connection's ring (./packet-ring.ts). */
export interface PacketRun {
  connection: number;
  clip: number;
  first: number;
  packets: Uint8Array[];
  /** The DAVE generation they were sealed in; one below the connection's barrier is never sent (its copy follows). */
  generation: number;
}

/** The slots of a connection's barrier (ToSender 'open'). */
export const ConnectionBarrier = {
  /** The connection's DAVE generation: packets of a lower one were sealed before a transition that has executed. */
  generation: 0,
  /** 1 while the thread checks a packet's generation and sends it (SenderThread.transition waits that out). */
  sending: 1,
  /** The clip being sent and its next packet number, written as a packet passes the check: resealing starts there. */
  clip: 2,
  next: 3,
  length: 4,
} as const;

export type ToSender =
  /**
   * Opens a socket for a new voice session and runs IP discovery to ip:port. `barrier` (shared, ConnectionBarrier)
   * holds the DAVE generation, raised by the main thread in the turn a transition executes, and whether a send is
   * under way; `ring` (./packet-ring.ts) carries the packets and clip ends, in order.
   */
  | {
      type: 'open';
      connection: number;
      ip: string;
      port: number;
      ssrc: number;
      barrier: Int32Array;
      ring: SharedArrayBuffer;
    }
  /** The session's transport key and RTP starting point (session description); a new key starts a new nonce count. */
  | { type: 'keys'; connection: number; mode: string; key: Uint8Array; sequence: number; timestamp: number }
  /** The ring has packets and the thread slept (once a clip's start or a pause, never per packet). */
  | { type: 'wake'; connection: number }
  /** Drops the clip's packets not yet sent at once, without closing silence; `done` ('stopped') says how many went. */
  | { type: 'stop'; connection: number; clip: number }
  /** Holds the connection where it is (its session is not ready), or lets it go on. */
  | { type: 'hold'; connection: number; held: boolean }
  /**
   * The session is over: its socket closes, its queue is dropped (`done` 'closed' for a clip under way). `endedAt` (ms
   * since the epoch) is the earliest it may have ended as far as the main thread can tell: the clip's packets sent from
   * then on may have gone into an ended session, so its `done` counts only those sent before.
   */
  | { type: 'close'; connection: number; endedAt?: number }
  /** Asks for the sender's figures (SenderStats), and starts them afresh after. */
  | { type: 'stats'; reset: boolean };

/** How far one clip has gone: packets of it sent, and slots in a row it had none to send (silence instead). */
export interface ClipProgress {
  connection: number;
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
  | { type: 'discovered'; connection: number; ip: string; port: number }
  | { type: 'failed'; connection: number; message: string }
  /** Progress of the clips that moved since the last report (and a heartbeat when none did); `at` ms since the epoch. */
  | { type: 'report'; clips: ClipProgress[]; at?: number }
  /** A clip left its connection: after its closing silence, stopped, or the connection closed; `at`: ms since epoch. */
  | { type: 'done'; connection: number; clip: number; sent: number; how: 'ended' | 'stopped' | 'closed'; at?: number }
  /** The connection's socket failed or closed by itself. */
  | { type: 'lost'; connection: number; message: string }
  | { type: 'stats'; stats: SenderStats };
