/** Why the free voice spoke a line: a member chose it, or it stood in for the paid voice (money, the service failing). */
export type FreeVoiceCause = 'chosen' | 'fallback';

/** The lines the free voice spoke in a month, by why. */
export type FreeVoiceLines = Readonly<Record<FreeVoiceCause, number>>;
