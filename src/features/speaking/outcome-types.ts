// An outcome's words as outcome-words.ts gives them: what a front-end knows (Front) and posts (OutcomeAnswer).
import type { AttachmentPayload } from 'discord.js';
import type { AudioFormat } from '../../core/audio/codecs/format.ts';
import type { LocalisedMessage } from '../../core/i18n/catalogue.ts';
import type { SceneTimeline } from '../../core/order/scene-types.ts';
import type { VoiceMessage } from '../../core/voice-message/render.ts';
import type { VoiceMessageFallbackReason } from './voice-message-post.ts';

export type Locale = string | null | undefined;

/** Where a command's audio went, as hand-over.ts chose it (a file or voice message: why). */
export type CommandWhere =
  { kind: 'voice'; channelId: string } | { kind: 'file' | 'voice-message'; because: 'asked' | 'no-voice' };

/** What a front-end knows of the order whose outcome it words. */
export type Front =
  /** /say, /emote, the Speak menu, /clone's first line (speaking-command.ts). */
  | {
      flavour: 'command';
      locale: Locale;
      where: CommandWhere;
      /** The voice as replies name it so far (with why it was chosen, or the free voice that stood in). */
      voice: string;
      voiceId: string;
      /** The credit the speaking voice's engine asks for (`VOICEVOX:<speaker>`), on its files and voice message. */
      credit?: string | undefined;
      sizeLimit: number;
      /** Spoken by the free voice in place of the paid one at acceptance (Acceptance.fallback). */
      fellBack: boolean;
      /** The reply may carry the replay buttons (replies are kept and the request is replayable). */
      buttons: boolean;
    }
  /** /say and /emote outside a server (user-install.ts): a file, or a voice message as the response. */
  | {
      flavour: 'user-install';
      locale: Locale;
      where: 'file' | 'voice-message';
      voice: string;
      voiceId: string;
      credit?: string | undefined;
      sizeLimit: number;
    }
  /** A reply's "Play in my voice channel", from the cache (reply-buttons.ts). */
  | { flavour: 'replay'; channelId: string; voiceId: string }
  /** A reply's "Again" under a voice message, from the cache (reply-buttons.ts). */
  | { flavour: 'post-again'; voiceId: string; sizeLimit: number; memberId: string }
  /** "Save as sound" (soundboard.ts): the audio for the soundboard, worded by the soundboard once it took it. */
  | { flavour: 'sound' }
  /** /scene's "Play it" (src/features/scenes/scene-delivery.ts). */
  | {
      flavour: 'scene';
      locale: Locale;
      channelId?: string;
      speakers: number;
      lines: number;
      sizeLimit: number;
      memberId: string;
    }
  /** The studio's Make and Play it (the dashboard, through src/features/scenes/studio-scene.ts). */
  | { flavour: 'studio' }
  /** A dashboard voice sample (src/features/dashboard/samples.ts): audio served over HTTP, no words. */
  | { flavour: 'sample' };

export type Flavour = Front['flavour'];

/** Which row of reply buttons goes with an answer (reply-button-row.ts builds it). */
export type ButtonsFor = 'voice' | 'file';

/** Why a voice message went to the member as a file instead: Discord's or the member's bar, or no response to be. */
export type AsFileReason = VoiceMessageFallbackReason | 'not-a-response';

/** What a front-end posts for an outcome. */
export type OutcomeAnswer =
  /** Words, with their files and buttons; `notes` are further lines under them. */
  | {
      answer: 'reply';
      words: LocalisedMessage;
      notes: LocalisedMessage[];
      files: AttachmentPayload[];
      buttons?: ButtonsFor;
      seconds: number;
    }
  /** A voice message to post where the member may: `posted` once it is, `header` over it, `asFile` if barred. */
  | {
      answer: 'voice-message';
      message: VoiceMessage;
      seconds: number;
      /** The voice's label, for the buttons that follow a voice message that is the response. */
      voice: string;
      file: AttachmentPayload;
      posted?: LocalisedMessage;
      header?: LocalisedMessage;
      /** The free voice that stood in, said privately after a response-voice-message (which carries no words). */
      stoodIn?: LocalisedMessage;
      asFile: (reason: AsFileReason) => LocalisedMessage;
      notes: LocalisedMessage[];
      buttons?: ButtonsFor;
      timeline?: SceneTimeline;
    }
  /** A file over the upload limit, rendered as a voice message: `posted` in the channel, else `compressed` as a file. */
  | {
      answer: 'too-large';
      message: VoiceMessage;
      posted: LocalisedMessage;
      compressed: LocalisedMessage;
      file: AttachmentPayload;
      notes: LocalisedMessage[];
    }
  /** A scene's file: posted under `header` where the member may post files (`posted`), else theirs alone (`privately`). */
  | {
      answer: 'post-file';
      file: AttachmentPayload;
      header: LocalisedMessage;
      posted: LocalisedMessage;
      privately: LocalisedMessage;
      notes: LocalisedMessage[];
      timeline?: SceneTimeline;
    }
  /** The audio itself, for a front-end that serves or stores it (a sample, a sound, the studio's file). */
  | {
      answer: 'audio';
      data: Buffer;
      format: AudioFormat;
      seconds: number;
      words?: LocalisedMessage;
      notes: LocalisedMessage[];
      timeline?: SceneTimeline;
      cutAt?: number;
    }
  /** It would cost more than its member confirmed: nothing was paid, and the front-end shows the new price. */
  | { answer: 'price-changed' }
  /** Answered with this error, worded by failure-words.ts (the router, the button's or the page's failure). */
  | { answer: 'refused'; error: unknown };
