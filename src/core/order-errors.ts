/** A request that cannot be spoken as asked, thrown before paying; worded by src/features/speaking/failure-words.ts. */
export type SpeechInputProblem =
  /** Nothing is left to say once the text is trimmed. */
  | { code: 'empty-text' }
  /** The member chose a preset this server does not have. */
  | { code: 'unknown-preset'; name: string }
  /** Neither a preset voice ID nor a cloned voice of this server (by ID or name). */
  | { code: 'unknown-voice'; voice: string }
  /** A preset-shaped voice SayBot does not list, refused where it would be saved (the service may not have it). */
  | { code: 'voice-unlisted'; voice: string }
  /** A replay that may cost nothing (a reply's button) whose audio is no longer cached: nothing is paid for it. */
  | { code: 'not-cached' }
  /** A cloned voice deleted after the request was accepted: nothing more is said with it. */
  | { code: 'voice-deleted'; voice: string }
  /** A free voice, while the free voice is off (FREE_VOICE) or not installed. */
  | { code: 'free-voice-unavailable'; voice: string }
  /** An engine's voice (`voicevox:3`, `speech:af_heart`) that no engine of the owner's offers now: never sent. */
  | { code: 'engine-voice-unknown'; voice: string }
  /** An engine's voice to save while its engine has not answered since SayBot started: whether it offers it is unknown. */
  | { code: 'engine-voice-not-answering'; voice: string };

export class SpeechInputError extends Error {
  readonly problem: SpeechInputProblem;

  constructor(problem: SpeechInputProblem) {
    super(problem.code);
    this.name = 'SpeechInputError';
    this.problem = problem;
  }
}

/**
 * A file or voice message its member stopped while it was made: nothing more is asked for or posted; the part waited
 * for is let go (closed uncharged, or read and paid once its answer began). `paid`: characters accepted so far;
 * `unconfirmed`: those of a part closed before its answer, counted as spent.
 */
export class RenderStoppedError extends Error {
  readonly paid: number;
  readonly unconfirmed: number;

  constructor(paid = 0, unconfirmed = 0) {
    super(
      `stopped by its member while it was made, after ${paid} characters were paid and ${unconfirmed} may have been`,
    );
    this.name = 'RenderStoppedError';
    this.paid = paid;
    this.unconfirmed = unconfirmed;
  }
}
