// Messages the bot creates (interaction responses, follow-ups, channel messages), stored and answered as Discord does.
import { IS_COMPONENTS_V2, checkComponents, checkComponentsV2Body, isComponentsV2 } from './components.ts';
import type { UploadedFile } from './body.ts';
import { checkVoiceMessage } from './voice-message.ts';
import type { Cdn } from './cdn.ts';
import { snowflake } from './snowflake.ts';
import { userPayload, type GuildRecord, type UserRecord } from './state.ts';
import type { FakeAttachment, Mentioned } from './types.ts';
import { DiscordRefusal, apiError, asObject, type ApiError, type Json } from './api-error.ts';
import { keepNewest } from './retention.ts';

export { apiError, asObject, type ApiError, type Json } from './api-error.ts';

export const MessageFlag = { Ephemeral: 64, Loading: 128 } as const;
export const MAX_CONTENT = 2000;
export const MAX_EMBEDS = 10;
export const MAX_FILES = 10;
export const ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024;

/** Discord's checks on a message body; undefined when it is acceptable. `current`: the message an edit changes. */
export function checkMessageBody(
  data: Json,
  files: UploadedFile[],
  creating: boolean,
  current?: Json,
): ApiError | undefined {
  const content = data.content;
  if (content !== undefined && content !== null && typeof content !== 'string') {
    return apiError(400, 50035, 'Invalid Form Body', {
      content: { _errors: [{ code: 'STRING_TYPE_CONVERT', message: 'Could not interpret as string.' }] },
    });
  }
  if (typeof content === 'string' && [...content].length > MAX_CONTENT) {
    return apiError(400, 50035, 'Invalid Form Body', {
      content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_CONTENT} or fewer in length.` }] },
    });
  }
  if (Array.isArray(data.embeds) && data.embeds.length > MAX_EMBEDS) {
    return apiError(400, 50035, 'Invalid Form Body', {
      embeds: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_EMBEDS} or fewer in length.` }] },
    });
  }
  if (files.length > MAX_FILES) {
    return apiError(400, 50035, 'Invalid Form Body', {
      attachments: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_FILES} or fewer in length.` }] },
    });
  }
  if (files.reduce((sum, f) => sum + f.data.length, 0) > ATTACHMENT_SIZE_LIMIT) {
    return apiError(413, 40005, 'Request entity too large');
  }
  const empty =
    !(typeof content === 'string' && content.length > 0) &&
    !(Array.isArray(data.embeds) && data.embeds.length > 0) &&
    files.length === 0 &&
    !(Array.isArray(data.components) && data.components.length > 0) &&
    data.poll === undefined;
  if (creating && empty) return apiError(400, 50006, 'Cannot send an empty message');
  const v2 = isComponentsV2(data.flags) || isComponentsV2(current?.flags);
  return (
    checkComponentsV2Body(data, current) ??
    checkComponents(data.components, v2) ??
    checkVoiceMessage(data, files, creating)
  );
}

/**
 * Discord's refusal of a member's message (POST /channels/{id}/messages from their client): over 2,000 characters
 * is 400 50035 Invalid Form Body, never cut short. Undefined when it is sent.
 */
export function memberMessageRefusal(content: string): DiscordRefusal | undefined {
  return [...content].length > MAX_CONTENT
    ? new DiscordRefusal(400, 50035, `Invalid Form Body (content: Must be ${MAX_CONTENT} or fewer in length.)`)
    : undefined;
}

/** Who a message really pings: Discord's allowed_mentions rules (absent = parse everything). */
export function mentionedBy(content: unknown, allowedMentions: unknown): Mentioned {
  const text = typeof content === 'string' ? content : '';
  const users = [...text.matchAll(/<@!?(\d+)>/g)].map((m) => m[1] ?? '');
  const roles = [...text.matchAll(/<@&(\d+)>/g)].map((m) => m[1] ?? '');
  const everyone = /@(everyone|here)\b/.test(text);
  if (allowedMentions === undefined || allowedMentions === null) {
    return { users: [...new Set(users)], roles: [...new Set(roles)], everyone };
  }
  const allowed = asObject(allowedMentions);
  const parse = Array.isArray(allowed.parse) ? allowed.parse : [];
  const allowedUsers = Array.isArray(allowed.users) ? allowed.users.map(String) : [];
  const allowedRoles = Array.isArray(allowed.roles) ? allowed.roles.map(String) : [];
  return {
    users: [...new Set(users.filter((id) => parse.includes('users') || allowedUsers.includes(id)))],
    roles: [...new Set(roles.filter((id) => parse.includes('roles') || allowedRoles.includes(id)))],
    everyone: everyone && parse.includes('everyone'),
  };
}

/**
 * A reply's fields: message_reference (type 0, DEFAULT: a reply) and referenced_message, the message replied to as it
 * is now, without its own referenced message (Discord does not nest them).
 */
function replyFields(to: Json): Json {
  const { referenced_message: _nested, ...referenced } = to;
  return {
    message_reference: {
      type: 0,
      message_id: to.id,
      channel_id: to.channel_id,
      ...(to.guild_id === undefined ? {} : { guild_id: to.guild_id }),
    },
    referenced_message: referenced,
  };
}

export interface MessageContext {
  channelId: string;
  guild: GuildRecord | undefined;
  author: UserRecord;
  type: number;
  applicationId?: string;
  /** The interaction the message answers: its interaction_metadata (interactions.ts, metadataOf). */
  interactionMetadata?: Json;
  /** The message it is a reply to (a component's response: the message whose component was used). */
  replyTo?: Json;
}

export class MessageStore {
  private readonly messages = new Map<string, Json>();
  /** Messages kept (FakeDiscordOptions.retain): the oldest are forgotten, as if deleted. */
  retain = Infinity;
  private readonly cdn: Cdn;

  constructor(cdn: Cdn) {
    this.cdn = cdn;
  }

  get(id: string): Json | undefined {
    return this.messages.get(id);
  }

  delete(id: string): boolean {
    return this.messages.delete(id);
  }

  /** A channel's messages, oldest first, the newest `limit` of them. */
  inChannel(channelId: string, limit: number): Json[] {
    const found = [...this.messages.values()].filter((m) => m.channel_id === channelId);
    return found.slice(Math.max(0, found.length - limit));
  }

  create(context: MessageContext, data: Json, files: UploadedFile[], extraFlags = 0): Json {
    const id = snowflake();
    const content = typeof data.content === 'string' ? data.content : '';
    const mentioned = mentionedBy(content, data.allowed_mentions);
    const message: Json = {
      id,
      type: context.type,
      channel_id: context.channelId,
      ...(context.guild ? { guild_id: context.guild.id } : {}),
      author: userPayload(context.author),
      content,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: data.tts === true,
      mention_everyone: mentioned.everyone,
      mentions: mentioned.users.map((u) => ({
        id: u,
        username: `user-${u}`,
        discriminator: '0',
        avatar: null,
        global_name: null,
      })),
      mention_roles: mentioned.roles,
      mention_channels: [],
      attachments: this.attachmentsFor(data, files, []),
      embeds: Array.isArray(data.embeds) ? data.embeds : [],
      reactions: [],
      pinned: false,
      components: Array.isArray(data.components) ? data.components : [],
      flags: (typeof data.flags === 'number' ? data.flags : 0) | extraFlags,
      nonce: data.nonce ?? null,
      ...(context.applicationId ? { webhook_id: context.applicationId, application_id: context.applicationId } : {}),
      ...(context.interactionMetadata ? { interaction_metadata: context.interactionMetadata } : {}),
      ...(context.replyTo ? replyFields(context.replyTo) : {}),
    };
    this.messages.set(id, message);
    keepNewest(this.messages, this.retain);
    return message;
  }

  edit(id: string, data: Json, files: UploadedFile[]): Json | undefined {
    const message = this.messages.get(id);
    if (!message) return undefined;
    const existing = Array.isArray(message.attachments) ? (message.attachments as FakeAttachment[]) : [];
    const edited: Json = { ...message, edited_timestamp: new Date().toISOString() };
    if ('content' in data) edited.content = typeof data.content === 'string' ? data.content : '';
    if ('embeds' in data) edited.embeds = Array.isArray(data.embeds) ? data.embeds : [];
    if ('components' in data) edited.components = Array.isArray(data.components) ? data.components : [];
    // Ephemeral stays what it was; IS_COMPONENTS_V2, once set, stays (checkComponentsV2Body refuses taking it off).
    if (typeof data.flags === 'number')
      edited.flags = data.flags | ((message.flags as number) & (MessageFlag.Ephemeral | IS_COMPONENTS_V2));
    edited.flags = (edited.flags as number) & ~MessageFlag.Loading;
    edited.attachments = this.attachmentsFor(data, files, existing);
    const mentioned = mentionedBy(edited.content, data.allowed_mentions);
    edited.mention_everyone = mentioned.everyone;
    edited.mention_roles = mentioned.roles;
    this.messages.set(id, edited);
    return edited;
  }

  /** Uploaded files become hosted attachments; on edit, `attachments` lists which existing ones stay. */
  private attachmentsFor(data: Json, files: UploadedFile[], existing: FakeAttachment[]): FakeAttachment[] {
    const listed = Array.isArray(data.attachments) ? data.attachments.map(asObject) : undefined;
    const kept = listed === undefined ? existing : existing.filter((a) => listed.some((l) => String(l.id) === a.id));
    const uploaded = files.map((file) => {
      const meta = listed?.find((l) => String(l.id) === String(file.index));
      const name = typeof meta?.filename === 'string' ? meta.filename : file.name;
      const hosted = this.cdn.hostFile({ ...file, name });
      return typeof meta?.description === 'string' ? { ...hosted, description: meta.description } : hosted;
    });
    return [...kept, ...uploaded];
  }
}
