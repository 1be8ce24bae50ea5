// The auto-reader's decisions, pure so each is a row in a table test; reader.ts wires them to Discord and the pipeline.
import { quantiseSpeed } from '../../../core/settings/setting-declarations.ts';
import { cleanMessage, type CleanupContext } from '../text/cleanup.ts';
import { NAME_WINDOW_MS, type ReadingBinding } from './binding.ts';
import { withName } from './spoken.ts';

/** A message's own text and the facts clean-up reads: mention names, files, stickers, reply and forward. */
export interface MessageContent {
  content: string;
  cleanup: Pick<
    CleanupContext,
    'users' | 'roles' | 'channels' | 'attachments' | 'stickerNames' | 'replyTo' | 'forwarded'
  >;
}

/** What the reader needs to know about one chat message, as plain data (message-facts.ts adapts discord.js). */
export interface MessageFacts extends MessageContent {
  guildId: string;
  channelId: string;
  authorId: string;
  /** The author's display name in the server (a webhook's own name). */
  authorName: string;
  /** A bot account's message (not a webhook's). */
  bot: boolean;
  webhook: boolean;
  /** SayBot's own message. */
  self: boolean;
  /** A system message (member joined, pin, boost...): nothing a member wrote. */
  system: boolean;
  /** Sent with `@silent` (Discord's SUPPRESS_NOTIFICATIONS flag). */
  silent?: boolean;
  /** The author's roles (empty for webhooks). */
  roleIds: readonly string[];
  /** The voice channel the author sits in, null when none. */
  voiceChannelId: string | null;
  /** The author may not speak in the voice channel read: SayBot never says there what they may not say. */
  mayNotSpeak?: boolean;
  /** When it was sent (ms since epoch). */
  at: number;
}

export type SkipReason =
  | 'other-channel'
  | 'self'
  | 'system'
  | 'ignored'
  | 'skip-prefix'
  | 'silent'
  | 'bot'
  | 'webhook'
  | 'missing-role'
  | 'not-in-voice'
  | 'may-not-speak';

export type ReadVerdict = { read: true } | { read: false; why: SkipReason };

/** Whether `message` is read. Bots and webhooks follow readBots alone: the role and voice rules are members'. */
export function shouldRead(message: MessageFacts, binding: ReadingBinding): ReadVerdict {
  const skip = (why: SkipReason): ReadVerdict => ({ read: false, why });
  const { settings } = binding;
  if (message.channelId !== binding.channelId) return skip('other-channel');
  if (message.self) return skip('self');
  if (message.system) return skip('system');
  // The managers' choice, before anything is queued or held: an ignored member's messages cost nothing.
  if (binding.ignored?.has(message.authorId) === true) return skip('ignored');
  // Anyone's, bots' too: the prefix is how a channel says "not aloud".
  if (settings.skipPrefix !== undefined && message.content.trimStart().startsWith(settings.skipPrefix))
    return skip('skip-prefix');
  if (message.silent === true && !settings.readSilent) return skip('silent');
  if (message.webhook) return settings.readBots ? { read: true } : skip('webhook');
  if (message.bot) return settings.readBots ? { read: true } : skip('bot');
  if (message.mayNotSpeak === true) return skip('may-not-speak');
  if (settings.requiredRoleId !== undefined && !message.roleIds.includes(settings.requiredRoleId))
    return skip('missing-role');
  if (settings.onlyMembersInVoice && message.voiceChannelId !== binding.voiceChannelId) return skip('not-in-voice');
  return { read: true };
}

/** The next message's speed with `waiting` behind it, up to maxSpeed; 0.1 steps, as each speed is cached apart. */
export function catchUpSpeed(
  settings: Pick<ReadingBinding['settings'], 'fasterAfter' | 'maxSpeed' | 'skipAfter'>,
  waiting: number,
): number {
  const { fasterAfter, skipAfter } = settings;
  // On the speed grid even when stored before max_speed was rounded to it (the ramp's 0.1 steps are on it).
  const maxSpeed = quantiseSpeed(settings.maxSpeed);
  if (fasterAfter <= 0 || waiting <= fasterAfter || maxSpeed <= 1) return 1;
  const span = skipAfter > fasterAfter ? skipAfter - fasterAfter : 1;
  const share = Math.min(1, (waiting - fasterAfter) / span);
  return Math.min(maxSpeed, Math.ceil((1 + (maxSpeed - 1) * share) * 10) / 10);
}

/** Who was read last in a guild, and when: the name rule's memory. */
export interface LastSpeaker {
  userId: string;
  at: number;
}

/** The name is said unless the same member was the last one read, less than NAME_WINDOW_MS ago. */
export function nameDue(last: LastSpeaker | undefined, userId: string, at: number): boolean {
  return last === undefined || last.userId !== userId || at - last.at >= NAME_WINDOW_MS;
}

/** A display name is said in at most this many characters. */
const NAME_MAX = 32;

/** The words said for `message`: clean-up, the dictionary, then the author's name when `sayName`; '' for nothing. */
export function messageText(
  message: MessageFacts,
  binding: ReadingBinding,
  options: { sayName: boolean; dictionary?: (text: string) => string },
): string {
  const language = binding.language;
  const dictionary = options.dictionary ?? ((text: string) => text);
  // With readAttachments off, a message's files are passed over: a picture alone says nothing, not even the name.
  const read = binding.settings.readAttachments
    ? message
    : { ...message, cleanup: { ...message.cleanup, attachments: [] } };
  const text = spokenText(read, { maxLength: binding.settings.maxLength, language, dictionary });
  if (text === '') return '';
  if (!options.sayName) return text;
  const name = spokenName(message.authorName, language);
  return name === '' ? text : withName(dictionary(name), text, language);
}

/** The words for a message's own text, whoever reads it: clean-up then the dictionary; '' for nothing. */
export function spokenText(
  message: MessageContent,
  options: { maxLength: number; language?: string | undefined; dictionary?: (text: string) => string },
): string {
  const cleaned = cleanMessage(message.content, {
    ...message.cleanup,
    maxLength: options.maxLength,
    ...(options.language === undefined ? {} : { language: options.language }),
  });
  if (cleaned === '') return '';
  return options.dictionary ? options.dictionary(cleaned) : cleaned;
}

/** A display name as it can be said: emoji and markup gone, at most NAME_MAX characters; '' when nothing is left. */
export function spokenName(name: string, language: string | undefined): string {
  const cleaned = cleanMessage(name, { maxLength: Number.POSITIVE_INFINITY, language });
  return [...cleaned].slice(0, NAME_MAX).join('').trim();
}

/** When budgets or the month refuse, the channel is told once, until a message is accepted again. */
export class NoticeGate {
  #silenced = false;

  /** A refusal: true when this one should be announced (the first since the last accepted message). */
  refused(): boolean {
    if (this.#silenced) return false;
    this.#silenced = true;
    return true;
  }

  /** A message was accepted: the next refusal is announced again. */
  accepted(): void {
    this.#silenced = false;
  }

  get silenced(): boolean {
    return this.#silenced;
  }
}
