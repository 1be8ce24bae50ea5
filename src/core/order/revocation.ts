// Why speech accepted earlier may no longer be said: rights are asked again before each part and when an event says
// they may have changed (rights-asker.ts), since they may be taken away while it waits or plays.

/**
 * The member's own voice rights (src/features/speaking/gate.ts): in the channel, not server-muted, not a Stage
 * listener, View Channel, Speak and Connect there, not timed out.
 */
export type MemberVoiceRight =
  'not-in-voice' | 'muted' | 'suppressed' | 'may-not-view' | 'may-not-speak' | 'may-not-connect' | 'timed-out';

/** What was taken away, in domain terms; the front-ends word it (src/features/speaking/failure-words.ts). */
export type Revocation =
  /** The member's own voice rights in the channel the speech plays in (src/features/speaking/gate.ts reads them). */
  | { code: MemberVoiceRight; channelId: string }
  /** Auto-read's managers asked it not to read this member. */
  | { code: 'ignored' }
  /** The server is no longer one SayBot serves (ALLOWED_GUILDS). */
  | { code: 'not-served' };

/** A part, and the rest of its request, dropped because a right was taken away after acceptance. */
export class RightsRevokedError extends Error {
  readonly revocation: Revocation;

  constructor(revocation: Revocation) {
    super(`speech no longer allowed (${revocation.code})`);
    this.name = 'RightsRevokedError';
    this.revocation = revocation;
  }
}
