/** Why the free voice spoke a line: a member chose it, or it stood in for the paid voice (money, the service failing). */
export type FreeVoiceCause = 'chosen' | 'fallback';

/** Who spoke a free line: eSpeak NG in SayBot, or one of the owner's engines (src/core/engines/). */
export type FreeSpeaker = 'espeak' | 'voicevox' | 'speech';

/** The lines free voices spoke in a month: by why (every speaker's), and each engine's (eSpeak NG's are the rest). */
export type FreeVoiceLines = Readonly<Record<FreeVoiceCause, number>> & {
  readonly engines: Readonly<Record<Exclude<FreeSpeaker, 'espeak'>, number>>;
};
