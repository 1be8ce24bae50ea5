/** How a reply reaches a member who is not in voice: a file (what SayBot always did) or a voice message. */
export type OutsideVoiceOutput = 'file' | 'voice-message';

/** The defaults that may apply to one member; a field absent = none set at that level. */
export interface OutputDefaults {
  /** The server's default (set by an admin). */
  server?: OutsideVoiceOutput;
  /** The member's own choice in that server. */
  member?: OutsideVoiceOutput;
}
