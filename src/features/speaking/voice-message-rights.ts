// Whether a member may have SayBot post a voice message for them where they asked: SayBot never does what the member
// could not, so their rights there (as Discord sent them) are asked through src/core/order/rights.ts, and
// slowmode checked, before anything is paid. A member who may not gets the audio privately.
import { PermissionFlagsBits, type GuildTextBasedChannel, type PermissionsBitField } from 'discord.js';
import type { OrderRights } from '../../core/order/rights.ts';

/** The rights port the pipeline holds: the acceptance question is all this asks. */
export type VoiceMessageRights = Pick<OrderRights, 'allows'>;

/** Why a member's voice message goes to them privately instead: their rights, or the channel's slowmode. */
export type MemberVoiceMessageBar = 'member-no-permission' | 'slowmode';

/** What the check needs of an interaction (a slash command or the Speak menu, in a server). */
export interface VoiceMessageAsker {
  user: { id: string };
  channelId: string;
  channel: GuildTextBasedChannel | null;
  /** The member's permissions in the interaction's channel, as Discord computed them. */
  memberPermissions: Readonly<PermissionsBitField> | null;
}

/** Slowmode's bypass, as Discord documents it: members who may manage messages or the channel. */
const BYPASS_SLOWMODE = [PermissionFlagsBits.ManageMessages, PermissionFlagsBits.ManageChannels];

/** The member's bar to a voice message in the interaction's channel, if any; a slowmode pass is taken (claimed). */
export function claimMemberVoiceMessage(
  asker: VoiceMessageAsker,
  rights: VoiceMessageRights,
  book: SlowmodeBook = slowmodeBook,
): MemberVoiceMessageBar | undefined {
  const permissions = asker.memberPermissions;
  if (permissions === null) return 'member-no-permission';
  // Whether they may post one there themselves (rights as sent): a private answer is a bar here.
  const thread = asker.channel?.isThread() ?? false;
  const verdict = rights.allows({
    does: ['post-voice-message'],
    at: { guild: null, memberId: asker.user.id, text: { thread, member: permissions, bot: null } },
  });
  if (verdict.kind !== 'allowed' || verdict.privately) return 'member-no-permission';
  const seconds =
    asker.channel !== null && 'rateLimitPerUser' in asker.channel ? (asker.channel.rateLimitPerUser ?? 0) : 0;
  if (seconds <= 0 || BYPASS_SLOWMODE.some((bit) => permissions.has(bit))) return undefined;
  return book.claim(`${asker.channelId}/${asker.user.id}`, seconds * 1000) ? undefined : 'slowmode';
}

/**
 * When each member may next post through SayBot per slowmode channel (monotonic). Bounded: entries lapse with
 * their slowmode (at most 6 h) and past `maxEntries` the oldest go, which only lets a member post sooner.
 */
export class SlowmodeBook {
  private readonly until = new Map<string, number>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(options: { now?: () => number; maxEntries?: number } = {}) {
    this.now = options.now ?? (() => performance.now());
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** True, and the member's next slot booked `intervalMs` ahead, when their previous slot has passed. */
  claim(key: string, intervalMs: number): boolean {
    const now = this.now();
    const until = this.until.get(key);
    if (until !== undefined && until > now) return false;
    this.until.delete(key);
    if (this.until.size >= this.maxEntries) this.evict(now);
    this.until.set(key, now + intervalMs);
    return true;
  }

  get size(): number {
    return this.until.size;
  }

  private evict(now: number): void {
    for (const [key, until] of this.until) if (until <= now) this.until.delete(key);
    while (this.until.size >= this.maxEntries) {
      const oldest = this.until.keys().next();
      if (oldest.done === true) break;
      this.until.delete(oldest.value);
    }
  }
}

/** The process's book: a channel belongs to one guild, and a guild to one shard process. */
const slowmodeBook = new SlowmodeBook();
