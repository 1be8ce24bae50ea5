// A chat message as it should be heard; what a listener gains nothing from (emoji, URLs, wwwww) is cut, being paid.
import { fill, spokenLanguage, spokenWords } from './spoken-words.ts';
import type { SpokenLanguage, SpokenWords } from './spoken-words.ts';
import { trimEndOf, unmaskLinks, unwrapUnderscoreItalics } from './linear-markup.ts';

export interface AttachmentInfo {
  filename: string;
  /** The MIME type Discord reports, when it does; else the file name's extension decides. */
  contentType?: string;
}

export interface CleanupContext {
  /** The server's language (a Discord locale or language code); English when missing or not ko/ja. */
  language?: string | undefined;
  /** Display names by user ID, for <@id> mentions. */
  users?: Readonly<Record<string, string>>;
  roles?: Readonly<Record<string, string>>;
  channels?: Readonly<Record<string, string>>;
  attachments?: readonly AttachmentInfo[];
  stickerNames?: readonly string[];
  /** The display name of the author of the message this one replies to. */
  replyTo?: string | undefined;
  forwarded?: boolean;
  /** The most characters (code points) of the message's own text that are spoken; default 200. */
  maxLength?: number;
}

export const DEFAULT_MAX_LENGTH = 200;
export const DEFAULT_REPEAT_LIMIT = 3;
/** Hosts at most this long are said ("youtu.be link"); longer ones are just "link". */
const SHORT_HOST = 20;
/** Inline `code` this short is read as it is (a command, a name); longer is "code". */
const SHORT_INLINE_CODE = 20;

// Replacement words go in as private-use placeholders, so later steps cannot alter a name or a spoken word.
const PLACEHOLDER = /\uE000(\d+)\uE001/g;
const PRIVATE_USE = /[\uE000-\uF8FF]/g;

const EMOJI =
  /[#*0-9]\uFE0F?\u20E3|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200D|\uFE0E|\uFE0F/gu;
// A URL ends before trailing punctuation that belongs to the sentence around it.
const URL = /<?\bhttps?:\/\/[^\s<>]*[^\s<>.,!?:;'")\]]>?/gi;

/** A file's kind by its extension, where Discord reports no MIME type. */
const EXTENSIONS = {
  image: 'png jpg jpeg gif webp bmp svg avif heic',
  video: 'mp4 mov webm mkv avi m4v',
  audio: 'mp3 wav ogg opus flac m4a aac',
} as const;
const EXTENSION_KINDS = new Map(
  Object.entries(EXTENSIONS).flatMap(([kind, list]) =>
    list.split(' ').map((extension) => [extension, kind as keyof typeof EXTENSIONS] as const),
  ),
);

/** The message as text to speak; an empty string when there is nothing worth speaking. */
export function cleanMessage(content: string, context: CleanupContext = {}): string {
  const language = spokenLanguage(context.language);
  const words = spokenWords(language);
  const spoken: string[] = [];
  const word = (text: string): string => `\uE000${spoken.push(text) - 1}\uE001`;

  let text = content.normalize('NFC').replace(PRIVATE_USE, '');
  text = text.replace(/```[\s\S]*?(```|$)/g, () => word(words.code));
  text = text.replace(/`([^`\n]+)`/g, (_, inner: string) =>
    [...inner.trim()].length <= SHORT_INLINE_CODE ? word(inner.trim()) : word(words.code),
  );
  text = text.replace(/\|\|[\s\S]*?\|\|/g, () => word(words.spoiler));
  text = unmaskLinks(text);
  text = text.replace(URL, (url) => word(linkWord(url, words)));
  text = text.replace(/<@!?(\d+)>/g, (_, id: string) => word(context.users?.[id] ?? words.unknownUser));
  text = text.replace(/<@&(\d+)>/g, (_, id: string) => word(context.roles?.[id] ?? words.unknownRole));
  text = text.replace(/<#(\d+)>/g, (_, id: string) => word(context.channels?.[id] ?? words.unknownChannel));
  text = text.replace(/<\/([\w\- ]+):\d+>/gu, (_, name: string) => word(name));
  text = text.replace(/<a?:([^:\s<>]+):\d+>/g, (_, name: string) => word(name.replace(/_/g, ' ').trim()));
  text = text.replace(/<t:(-?\d+)(?::[tTdDfFR])?>/g, (_, seconds: string) =>
    word(spokenDate(Number(seconds), language)),
  );
  text = text.replace(/@everyone\b/g, () => word(words.everyone)).replace(/@here\b/g, () => word(words.here));
  text = text.replace(EMOJI, '');
  text = stripMarkdown(text);
  text = capRepeats(text, DEFAULT_REPEAT_LIMIT);
  text = text.replace(/\s+/g, ' ').trim();
  text = text.replace(PLACEHOLDER, (match: string, index: string, offset: number, whole: string) => {
    // Spaced from a neighbouring Latin word or another replacement, not from Hangul or kana (particles attach).
    const before = /[A-Za-z0-9\uE001]/.test(whole[offset - 1] ?? '') ? ' ' : '';
    const after = /[A-Za-z0-9\uE000]/.test(whole[offset + match.length] ?? '') ? ' ' : '';
    return before + (spoken[Number(index)] ?? '') + after;
  });
  text = text
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.!?、。])/g, '$1')
    .trim();
  if (!/[\p{L}\p{N}]/u.test(text)) text = '';
  text = cutToLength(text, context.maxLength ?? DEFAULT_MAX_LENGTH, words);
  return announce(text, context, words);
}

function linkWord(url: string, words: SpokenWords): string {
  let host = '';
  try {
    host = new globalThis.URL(url.replace(/^<|>$/g, '')).hostname.replace(/^www\./, '');
  } catch {
    // Not a URL the platform can parse: say "link" without a host.
  }
  return host !== '' && host.length <= SHORT_HOST ? fill(words.linkTo, { host }) : words.link;
}

function spokenDate(seconds: number, language: SpokenLanguage): string {
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) return '';
  // The listener's time zone is unknown here; the date alone (UTC) is rarely wrong by more than a day.
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

function stripMarkdown(text: string): string {
  const unmarked = text
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s*(?:>>> |> )/, '')
        .replace(/^\s*(?:#{1,3}|-#) /, '')
        .replace(/^\s*[-*+] /, ''),
    )
    .join('\n')
    .replace(/\\([*_~|`>#\\-])/g, '$1')
    .replace(/\*\*|__|~~|\*/g, '');
  // A single underscore pair is italics only around words, not inside snake_case.
  return unwrapUnderscoreItalics(unmarked);
}

/** Runs of one character (wwwww, ㅋㅋㅋㅋ, !!!!!) cut to `limit`; digits are left alone (10000 is a number). */
function capRepeats(text: string, limit: number): string {
  if (limit < 1) return text;
  return text.replace(/(\P{N})\1+/gsu, (run, char: string) => {
    const count = [...run].length;
    return count > limit ? char.repeat(limit) : run;
  });
}

const SENTENCE_TAIL = /^[\s,、.。]$/u;

/** At most `max` code points: cut at the last word boundary that fits, with a spoken "and so on". */
function cutToLength(text: string, max: number, words: SpokenWords): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  // A limit so small that "and so on" would take half of it is cut without it.
  const wanted = words.pause + words.andSoOn;
  const suffix = [...wanted].length * 2 <= max ? wanted : '';
  const room = Math.max(1, max - [...suffix].length);
  const head = chars.slice(0, room + 1);
  // The last space or sentence mark in the second half; scripts without spaces are cut at the code point.
  let cut = room;
  for (let i = room; i > room / 2; i--) {
    const c = head[i] ?? '';
    if (/\s/u.test(c)) {
      cut = i;
      break;
    }
    if (/[、。，,.!?！？]/u.test(c) && i < room) {
      cut = i + 1;
      break;
    }
  }
  const kept = trimEndOf(chars.slice(0, cut).join(''), SENTENCE_TAIL);
  return kept + suffix;
}

function announce(text: string, context: CleanupContext, words: SpokenWords): string {
  const extras: string[] = [];
  const attachments = context.attachments ?? [];
  if (attachments.length > 1) extras.push(fill(words.files, { count: attachments.length }));
  else if (attachments[0]) extras.push(words[attachmentKind(attachments[0])]);
  for (const name of context.stickerNames ?? []) extras.push(fill(words.sticker, { name }));
  // A reply or forward with nothing to speak is not announced: the announcement alone would be noise.
  if (text === '' && extras.length === 0) return '';
  const lead = context.forwarded
    ? words.forwarded
    : context.replyTo !== undefined
      ? fill(words.replyTo, { name: context.replyTo })
      : '';
  return [lead, text, ...extras].filter((part) => part !== '').join(words.pause);
}

function attachmentKind(attachment: AttachmentInfo): 'image' | 'video' | 'audio' | 'file' {
  const type = attachment.contentType?.split('/')[0];
  if (type === 'image' || type === 'video' || type === 'audio') return type;
  const extension = attachment.filename.toLowerCase().split('.').at(-1) ?? '';
  return attachment.filename.includes('.') ? (EXTENSION_KINDS.get(extension) ?? 'file') : 'file';
}
