// The shapes a scene takes between its script and its delivery: who speaks in which voice (cast.ts), what the
// pipeline will say (scene-plan.ts), and a scene waiting for its member's "Play it" (pending-scenes.ts). Types only.
import type { ResolvedSettings } from '../../core/settings/speech-request.ts';
import type { SceneLine } from '../../core/order/scene-types.ts';

export interface Speaker {
  /** As first written in the script. */
  name: string;
  settings: ResolvedSettings;
  /** Where the voice came from, for the cast shown before paying. */
  from: { kind: 'cast' } | { kind: 'member'; userId: string } | { kind: 'distinct' };
}

/** One turn as it will be heard: who says what (the subtitles name them). */
export interface PlannedTurn {
  speaker: string;
  text: string;
}

export interface ScenePlan {
  lines: SceneLine[];
  turns: PlannedTurn[];
  /** How long it should last, estimated from its text and pauses (the queue bounds' estimate). */
  seconds: number;
  speakers: number;
}

export interface PendingScene {
  guildId: string;
  userId: string;
  plan: ScenePlan;
  /** Who speaks in which voice, as the preview showed them (shown again when the price changed). */
  speakers: ReadonlyMap<string, Speaker>;
  /** Where it goes, as decided at its preview (and checked again at "Play it"). */
  output: 'voice' | 'file' | 'voice-message';
  /** The voice channel the preview named (voice only). */
  channelId?: string;
  format: 'wav' | 'mp3';
  /** The characters the preview showed: "Play it" never pays more (the pipeline's SpeechOrder quoted). */
  quoted: number;
}
