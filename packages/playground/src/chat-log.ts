// Members' chat as the page shows it: the local Discord dispatches a member's message to SayBot and keeps no copy, so
// the page keeps the newest of each channel here, to show them and to use the Speak menu on them.
import type { ChatMessage } from '@saybot/local-discord';

/** Discord's epoch, for snowflakes made here. */
const DISCORD_EPOCH = 1_420_070_400_000n;
let sequence = 0n;

/** A snowflake of now, as Discord makes them (time in its high bits), so chat sorts among SayBot's messages. */
export function snowflakeNow(): string {
  sequence = (sequence + 1n) & 0xfffn;
  return String(((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | (1n << 17n) | sequence);
}

export class ChatLog {
  readonly #perChannel: number;
  readonly #channels = new Map<string, ChatMessage[]>();

  constructor(perChannel: number) {
    this.#perChannel = perChannel;
  }

  add(message: Omit<ChatMessage, 'id'>): ChatMessage {
    const kept = { ...message, id: snowflakeNow() };
    const list = this.#channels.get(message.channelId) ?? [];
    list.push(kept);
    if (list.length > this.#perChannel) list.splice(0, list.length - this.#perChannel);
    this.#channels.set(message.channelId, list);
    return kept;
  }

  in(channelId: string): readonly ChatMessage[] {
    return this.#channels.get(channelId) ?? [];
  }

  find(channelId: string, id: string): ChatMessage | undefined {
    return this.in(channelId).find((m) => m.id === id);
  }
}
