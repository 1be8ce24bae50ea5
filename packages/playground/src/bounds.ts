// What the playground keeps, at most: it runs until stopped, so every list and buffer has a size.
/** What the playground keeps, at most. */
export const BOUNDS = {
  /** Messages, interactions, hosted files and log entries the local Discord keeps. */
  discordEntries: 500,
  /** Seconds of the voice channel's audio the local Discord keeps (the page hears it live). */
  heardSeconds: 30,
  /** Members' chat messages the page keeps per channel, and messages it shows per channel (and of one's DMs). */
  messagesPerChannel: 100,
  /** Interactions the page started that it remembers, to draw a form SayBot answers one with. */
  openInteractions: 50,
  /** Request records the sandbox keeps. */
  sandboxRecords: 500,
  /** SayBot's log lines and characters of output kept (for the reason it stopped). */
  botLines: 500,
  botChars: 256 * 1024,
  /** Audio queued for one listening page before its newest chunks are dropped (a slow or stalled page). */
  listenerBytes: 512 * 1024,
  /** Pages listening at once. */
  listeners: 8,
} as const;
