// What a channel looks like to one person, as a Discord client shows it: SayBot's messages as they now are (edits
// applied, a deferred reply "thinking" until it is edited), each person's chat, a reply only its member may see marked
// so and hidden from the others, attachments through this page's own /cdn (the page's policy allows no other origin).
import type { ServerResponse } from 'node:http';
import type { ChatMessage, FakeDiscord } from '@saybot/local-discord';
import { BOUNDS } from './bounds.ts';
import type { ChatLog } from './chat-log.ts';

type Json = Record<string, unknown>;

const EPHEMERAL = 1 << 6;
const LOADING = 1 << 7;
const VOICE_MESSAGE = 1 << 13;

export interface ShownMessage {
  id: string;
  author: { id: string; name: string; bot: boolean };
  content: string;
  /**
   * Who used which command ("alice used /say"): a command's response, or that of a form a command opened. `name` as
   * shown: "/say", or a context menu's "Speak".
   */
  interaction?: { user: string; name: string };
  /**
   * The message this one replies to, as the client shows it above: a component's response (or that of a form a
   * button opened) replies to the message whose component was used. `author` undefined: that message is gone.
   */
  reply?: { id: string; author?: string; text: string };
  ephemeral: boolean;
  /** An interaction SayBot never acknowledged within Discord's 3 s (the client's own notice, not a message). */
  failed?: boolean;
  loading: boolean;
  voiceMessage: boolean;
  embeds: unknown[];
  components: unknown[];
  attachments: Array<{ url: string; filename: string; contentType?: string; seconds?: number; description?: string }>;
}

const object = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});

const authorName = (message: Json): string => {
  const author = object(message.author);
  return String(author.global_name ?? author.username ?? 'SayBot');
};

/**
 * What the line above a message says of the interaction it answers (its interaction_metadata): "alice used /name"
 * for a command, or for a form a command opened; for a component, or a form a component opened, the message the
 * component was on, as a reply's line ("Original message was deleted" once it is gone).
 */
function answered(message: Json, find: (id: string) => Json | undefined): Pick<ShownMessage, 'interaction' | 'reply'> {
  const meta = object(message.interaction_metadata);
  if (meta.id === undefined) return {};
  const trigger = object(meta.triggering_interaction_metadata);
  const origin = Number(meta.type) === 5 && trigger.id !== undefined ? trigger : meta;
  // A slash command is named with its slash, a message's context menu (Apps ▸ Speak) as it is.
  if (Number(origin.type) === 2) {
    const name = String(origin.name ?? '');
    const user = String(object(meta.user).username ?? '');
    return { interaction: { user, name: origin.target_message_id === undefined ? `/${name}` : name } };
  }
  const id = String(origin.interacted_message_id ?? object(message.message_reference).message_id ?? '');
  const to = find(id);
  return { reply: to === undefined ? { id, text: 'Original message was deleted' } : { id, ...replyPreview(to) } };
}

/** A replied-to message as the reply's line shows it: its author and the start of its text. */
function replyPreview(message: Json): { author: string; text: string } {
  const texts: string[] = [String(message.content ?? '')];
  for (const embed of Array.isArray(message.embeds) ? message.embeds : [])
    texts.push(String(object(embed).title ?? ''), String(object(embed).description ?? ''));
  const displays = (components: unknown): void => {
    for (const c of Array.isArray(components) ? components : []) {
      if (object(c).type === 10) texts.push(String(object(c).content ?? ''));
      displays(object(c).components);
    }
  };
  displays(message.components);
  const text = texts.find((t) => t.trim() !== '');
  const attached = Array.isArray(message.attachments) && message.attachments.length > 0;
  return {
    author: authorName(message),
    text: text === undefined ? (attached ? 'Click to see attachment' : '') : text.slice(0, 300),
  };
}

function fromDiscord(message: Json, find: (id: string) => Json | undefined): ShownMessage {
  const author = object(message.author);
  const flags = Number(message.flags) || 0;
  return {
    id: String(message.id),
    author: { id: String(author.id), name: authorName(message), bot: true },
    content: String(message.content ?? ''),
    ...answered(message, find),
    ephemeral: (flags & EPHEMERAL) !== 0,
    loading: (flags & LOADING) !== 0,
    voiceMessage: (flags & VOICE_MESSAGE) !== 0,
    embeds: Array.isArray(message.embeds) ? message.embeds : [],
    components: Array.isArray(message.components) ? message.components : [],
    attachments: (Array.isArray(message.attachments) ? message.attachments : []).map((a) => {
      const attachment = object(a);
      return {
        url: `/cdn/${String(attachment.id)}/${encodeURIComponent(String(attachment.filename))}`,
        filename: String(attachment.filename),
        ...(typeof attachment.content_type === 'string' ? { contentType: attachment.content_type } : {}),
        ...(typeof attachment.duration_secs === 'number' ? { seconds: attachment.duration_secs } : {}),
        ...(typeof attachment.description === 'string' ? { description: attachment.description } : {}),
      };
    }),
  };
}

function fromChat(message: ChatMessage): ShownMessage {
  return {
    id: message.id,
    author: { id: message.author.id, name: message.author.username, bot: false },
    content: message.content,
    ephemeral: false,
    loading: false,
    voiceMessage: false,
    embeds: [],
    components: [],
    attachments: [],
  };
}

/** Who may see a message: everyone, or only the member a private reply is for. */
function visibleTo(message: Json, personId: string): boolean {
  if (((Number(message.flags) || 0) & EPHEMERAL) === 0) return true;
  return String(object(object(message.interaction_metadata).user).id) === personId;
}

/** A channel's newest messages as `personId` sees them, oldest first. */
export function channelMessages(
  discord: FakeDiscord,
  chat: ChatLog,
  channelId: string,
  personId: string,
  unansweredHere: readonly ShownMessage[] = [],
): ShownMessage[] {
  const held = discord.messagesIn(channelId, BOUNDS.messagesPerChannel);
  const find = (id: string) => held.find((m) => String(m.id) === id && visibleTo(m, personId));
  const shown = [
    ...unansweredHere,
    ...held.filter((m) => visibleTo(m, personId)).map((m) => fromDiscord(m, find)),
    ...chat.in(channelId).map(fromChat),
  ];
  shown.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));
  return shown.slice(-BOUNDS.messagesPerChannel);
}

/**
 * What Discord's client shows its member, and only them, for an interaction the app did not acknowledge within 3 s:
 * under "alice used /say", "The application did not respond" (for a button, "This interaction failed").
 */
export function unanswered(input: { id: string; user: string; name: string; button: boolean }): ShownMessage {
  return {
    id: input.id,
    author: { id: 'saybot', name: 'SayBot', bot: true },
    content: input.button ? 'This interaction failed' : 'The application did not respond',
    ...(input.button ? {} : { interaction: { user: input.user, name: `/${input.name}` } }),
    ephemeral: true,
    failed: true,
    loading: false,
    voiceMessage: false,
    embeds: [],
    components: [],
    attachments: [],
  };
}

/** The newest direct messages SayBot sent this person, oldest first (the local Discord keeps them bounded too). */
export function directMessages(discord: FakeDiscord, personId: string): ShownMessage[] {
  const held = discord
    .directMessages(personId)
    .slice(-BOUNDS.messagesPerChannel)
    .map((m) => m.message);
  return held.map((m) => fromDiscord(m, (id) => held.find((other) => String(other.id) === id)));
}

/** One of SayBot's messages as the Speak menu sends it (author, content, attachments), if `personId` sees it. */
export function shownMessage(
  discord: FakeDiscord,
  channelId: string,
  id: unknown,
  personId: string,
): (Omit<ChatMessage, 'id' | 'channelId' | 'guildId'> & { id: string }) | undefined {
  const message = discord.messagesIn(channelId, BOUNDS.messagesPerChannel).find((m) => String(m.id) === String(id));
  if (message === undefined || !visibleTo(message, personId)) return undefined;
  const author = object(message.author);
  return {
    id: String(message.id),
    author: { id: String(author.id), username: String(author.username ?? 'SayBot'), bot: true },
    content: String(message.content ?? ''),
  };
}

/** An attachment the local Discord hosts, passed through (its CDN listens on 127.0.0.1 only). */
export async function proxyAttachment(
  discord: FakeDiscord,
  id: string,
  name: string,
  res: ServerResponse,
  headers: Record<string, string>,
): Promise<void> {
  const base = new URL(discord.restUrl).origin;
  const answer = await fetch(`${base}/attachments/${id}/${name}`);
  if (!answer.ok) {
    res.writeHead(404, headers);
    return void res.end();
  }
  const bytes = Buffer.from(await answer.arrayBuffer());
  res.writeHead(200, {
    ...headers,
    'content-type': answer.headers.get('content-type') ?? 'application/octet-stream',
    'content-length': String(bytes.length),
  });
  res.end(bytes);
}
