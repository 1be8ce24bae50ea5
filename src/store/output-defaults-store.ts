/** How a reply reaches a member who is not in voice (issue 15): a file (what SayBot always did) or a voice message. */
export type OutsideVoiceOutput = 'file' | 'voice-message';

/** The defaults that may apply to one member; a field absent = none set at that level. */
export interface OutputDefaults {
  /** The server's default (set by an admin). */
  server?: OutsideVoiceOutput;
  /** The member's own choice in that server. */
  member?: OutsideVoiceOutput;
}

/**
 * Output defaults for members outside voice (tables guild_output_defaults, member_output_defaults; `store.outputDefaults`). The store keeps
 * both levels; which applies is the caller's rule (the member's over the server's; with neither, a file).
 */
export interface OutputDefaultsStore {
  /** Both levels for this member in this guild, in one read. */
  get(guildId: string, userId: string): Promise<OutputDefaults>;
  /** Sets the server's default; null removes it. */
  setServer(guildId: string, output: OutsideVoiceOutput | null, updatedBy: string): Promise<void>;
  /** Sets the member's own default in the guild; null removes it. */
  setMember(guildId: string, userId: string, output: OutsideVoiceOutput | null): Promise<void>;
}
