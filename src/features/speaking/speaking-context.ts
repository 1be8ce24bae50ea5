// What the speaking feature adds to the commands' context (declaration merging, as a feature offers a service), so
// the core names no feature.
import type { FileShares } from './file-shares.ts';
import type { ReplyAudioRegistry } from './reply-audio.ts';

declare module '../../core/interactions/command.ts' {
  interface CommandContext {
    /** What a reply's buttons replay (reply-buttons.ts); absent: replies carry no buttons. */
    replyAudio?: ReplyAudioRegistry;
    /** The bot's files and voice messages under way (file-shares.ts): each front-end that posts one takes a share. */
    fileShares: FileShares;
  }
}
