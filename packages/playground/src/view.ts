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
  /** Who used which command, for a reply to an interaction ("alice used /say"). */
  interaction?: { user: string; name: string };
  ephemeral: boolean;
  /** An interaction SayBot never acknowledged within Discord's 3 s (the client's own notice, not a message). */
  failed?: boolean;
  loading: boolean;
  voiceMessage: boolean;
  embeds: unknown[];
  components: unknown[];
  attachments: Array<{ url: string; filename: string; contentType?: string; seconds?: number }>;
}

const object = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});

function fromDiscord(message: Json): ShownMessage {
  const author = object(message.author);
  const flags = Number(message.flags) || 0;
  const meta = object(message.interaction_metadata);
  return {
    id: String(message.id),
    author: { id: String(author.id), name: String(author.global_name ?? author.username ?? 'SayBot'), bot: true },
    content: String(message.content ?? ''),
    ...(meta.id !== undefined
      ? { interaction: { user: String(object(meta.user).username ?? ''), name: String(meta.name ?? '') } }
      : {}),
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
  const shown = [
    ...unansweredHere,
    ...discord
      .messagesIn(channelId, BOUNDS.messagesPerChannel)
      .filter((m) => visibleTo(m, personId))
      .map(fromDiscord),
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
    ...(input.button ? {} : { interaction: { user: input.user, name: input.name } }),
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
  return discord
    .directMessages(personId)
    .slice(-BOUNDS.messagesPerChannel)
    .map((m) => fromDiscord(m.message));
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
