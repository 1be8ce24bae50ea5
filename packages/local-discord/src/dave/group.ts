// One DAVE media session: the MLS group of a voice channel while the bot is connected to it. The gateway is the
// delivery service and the external sender: it proposes Add/Remove as members come and go, picks the first valid
// commit of each epoch, hands out welcomes, and runs the transitions (protocol.md, "Group Key Exchange").
// The bot is a remote client (its messages pass through a delayed queue); listening members are in-process
// DaveListeners that answer at once.
import {
  appendProposalsPayload,
  parseCommitWelcome,
  parseKeyPackage,
  revokeProposalsPayload,
  snowflakeBytes,
  welcomeFor,
  type ExternalSender,
  type ParsedKeyPackage,
} from './mls.ts';
import { DaveListener, type ListenerStats } from './listener.ts';

export const DaveOp = {
  PrepareTransition: 21,
  ExecuteTransition: 22,
  ReadyForTransition: 23,
  PrepareEpoch: 24,
  ExternalSender: 25,
  KeyPackage: 26,
  Proposals: 27,
  CommitWelcome: 28,
  AnnounceCommit: 29,
  Welcome: 30,
  InvalidCommitWelcome: 31,
} as const;
const ClientsConnect = 11;
const ClientDisconnect = 13;
const DAVE_VERSION = 1;
/** Real Discord executes a transition after a timeout even when someone never said ready. */
const TRANSITION_TIMEOUT_MS = 5000;
const SILENCE_FRAME = Buffer.from([0xf8, 0xff, 0xfe]);

/** Who creates the group and commits the proposals: the bot, or (when there is one) a listening member. */
export type DaveCommitter = 'bot' | 'listener';

/** The bot's voice session, as the group talks to it (sends already pass through the delay). */
export interface BotLink {
  readonly userId: string;
  sendJson(op: number, d: unknown): void;
  sendBinary(op: number, payload: Buffer): void;
}

export interface DaveGroupOptions {
  guildId: string;
  channelId: string;
  bot: BotLink;
  externalSender: ExternalSender;
  committer: DaveCommitter;
  /** Send the first proposals before CLIENTS_CONNECT (op 27 before op 11), which @discordjs/voice cannot handle. */
  proposalsBeforeClientsConnect: boolean;
  report: (line: string) => void;
  changed: () => void;
  /** Test switch: true when this op 29 (commit) / op 30 (welcome) to the bot should arrive damaged. */
  damage: (kind: 'commit' | 'welcome') => boolean;
}

export interface DaveGroupState {
  guildId: string;
  channelId: string;
  /** 0 until the group is established. */
  epoch: bigint;
  established: boolean;
  /** User IDs in the established group (the bot among them once it is in). */
  members: string[];
  /** Transitions executed for the bot (op 22 delivered, or a transition 0 reset). */
  botTransitions: number;
  /** The epoch the bot moved to at its last executed transition; 0 before any. */
  botEpoch: bigint;
  /** performance.now() when the bot's first transition was delivered. */
  firstTransitionAtMs: number | undefined;
  /** Commits that arrived for a past epoch or lost to another member's (not broadcast). */
  droppedCommits: number;
  invalidCommitWelcomes: number;
  listeners: ListenerStats[];
}

export type FrameVerdict =
  | { kind: 'silence' }
  | { kind: 'plaintext'; afterTransition: boolean }
  | { kind: 'e2ee'; opus: Buffer | undefined; failed: boolean };

interface InFlight {
  ref: Buffer;
  message: Buffer;
  kind: 'add' | 'remove';
  userId: string;
}
interface Transition {
  id: number;
  epoch: bigint;
  waiting: Set<string>;
  members: Set<string>;
  timer: NodeJS.Timeout;
}

export class DaveGroup {
  private readonly o: DaveGroupOptions;
  private readonly groupId: Uint8Array;
  private readonly listeners = new Map<string, DaveListener>();
  /** Key packages of users who are not (yet) members. */
  private readonly pending = new Map<string, ParsedKeyPackage>();
  private readonly connected = new Set<string>();
  private readonly pendingRemovals: Array<{ userId: string; leaf: number }> = [];
  private members = new Set<string>();
  /** The ratchet tree's leaves as the delivery service tracks them (RFC 9420: adds fill the leftmost blank leaf). */
  private leaves: Array<string | undefined> = [];
  /** Op 29/30 messages to the bot damaged on purpose (test switch): its op 31 answers are then expected. */
  private damaged = 0;
  private established = false;
  private epoch = 0n;
  private inFlight: InFlight[] = [];
  private transition: Transition | undefined;
  private nextTransitionId = 1;
  private readonly transitionEpochs = new Map<number, bigint>();
  private botTransitions = 0;
  private botEpoch = 0n;
  private firstTransitionAtMs: number | undefined;
  private droppedCommits = 0;
  private invalidCommitWelcomes = 0;
  private closed = false;

  constructor(options: DaveGroupOptions) {
    this.o = options;
    this.groupId = snowflakeBytes(options.channelId);
  }

  private get botId(): string {
    return this.o.bot.userId;
  }

  /** Right after SESSION_DESCRIPTION (dave_protocol_version 1): op 25, op 11, and the proposals already due. */
  start(listenerIds: string[]): void {
    this.o.bot.sendBinary(DaveOp.ExternalSender, this.o.externalSender.package());
    for (const userId of listenerIds) this.addListener(userId);
    if (this.o.committer === 'listener' && !this.o.proposalsBeforeClientsConnect) this.establishAmongListeners();
    if (this.o.proposalsBeforeClientsConnect) {
      // The bad order: proposals for members the client has not been told about yet.
      this.flushProposals(this.o.committer === 'listener' ? 'bot' : this.o.committer);
      if (listenerIds.length > 0) this.o.bot.sendJson(ClientsConnect, { user_ids: listenerIds });
      return;
    }
    if (listenerIds.length > 0) this.o.bot.sendJson(ClientsConnect, { user_ids: listenerIds });
    this.flushProposals();
  }

  /** Members already talking before the bot came: with two or more listeners they have a group of their own. */
  private establishAmongListeners(): void {
    const [creator, ...others] = [...this.listeners.values()];
    if (!creator || others.length === 0) return;
    const proposals = others.map((l) => this.o.externalSender.add(this.groupId, 0n, l.keyPackage.keyPackage));
    const commitWelcome = creator.proposals(
      appendProposalsPayload(proposals.map((p) => p.message)),
      others.map((l) => l.userId),
    );
    if (!commitWelcome) throw new Error('FakeDiscord DAVE: a listener did not commit the initial group');
    const parsed = parseCommitWelcome(commitWelcome);
    creator.apply('commit', parsed.commit);
    for (const other of others) {
      const welcome = parsed.welcome && welcomeFor(parsed.welcome, other.keyPackage.ref);
      if (!welcome || !other.apply('welcome', welcome))
        throw new Error(`FakeDiscord DAVE: listener ${other.userId} could not join`);
    }
    this.established = true;
    this.epoch = 1n;
    this.members = new Set(this.listeners.keys());
    this.leaves = this.applyToLeaves(
      [creator.userId],
      parsed.proposalRefs,
      proposals.map((p, i) => ({ ...p, kind: 'add' as const, userId: others[i]!.userId })),
    );
    for (const id of this.members) this.pending.delete(id);
    this.checkLeaves();
  }

  /** The leaves after a commit: its removes, then its adds, in the order the commit lists them (RFC 9420 §12.3). */
  private applyToLeaves(
    start: Array<string | undefined>,
    refs: Buffer[],
    proposals: InFlight[],
  ): Array<string | undefined> {
    const leaves = [...start];
    const ordered = refs.map((ref) => proposals.find((p) => p.ref.equals(ref))).filter((p) => p !== undefined);
    for (const p of ordered) if (p.kind === 'remove') leaves[leaves.indexOf(p.userId)] = undefined;
    for (const p of ordered) {
      if (p.kind !== 'add') continue;
      const blank = leaves.indexOf(undefined);
      if (blank >= 0) leaves[blank] = p.userId;
      else leaves.push(p.userId);
    }
    while (leaves.length > 0 && leaves[leaves.length - 1] === undefined) leaves.pop();
    return leaves;
  }

  /** The listeners know their own leaf: a mismatch means this delivery service lost track of the tree. */
  private checkLeaves(): void {
    for (const listener of this.listeners.values()) {
      if (!listener.member || !this.members.has(listener.userId)) continue;
      if (listener.leafIndex !== this.leaves.indexOf(listener.userId)) {
        this.o.report(
          `voice gateway DAVE: listener ${listener.userId} is at leaf ${String(listener.leafIndex)}, the gateway thought ${this.leaves.indexOf(listener.userId)}`,
        );
      }
    }
  }

  private addListener(userId: string): void {
    const listener = new DaveListener(userId, this.o.channelId, this.o.externalSender.package());
    this.listeners.set(userId, listener);
    this.connected.add(userId);
    this.pending.set(userId, listener.keyPackage);
  }

  listenerJoined(userId: string): void {
    if (this.closed || this.listeners.has(userId)) return;
    this.o.bot.sendJson(ClientsConnect, { user_ids: [userId] });
    this.addListener(userId);
    this.flushProposals();
    this.o.changed();
  }

  listenerLeft(userId: string): void {
    const listener = this.listeners.get(userId);
    if (this.closed || !listener) return;
    this.o.bot.sendJson(ClientDisconnect, { user_id: userId });
    this.listeners.delete(userId);
    this.connected.delete(userId);
    this.pending.delete(userId);
    const waitingAdd = this.inFlight.find((p) => p.kind === 'add' && p.userId === userId);
    if (waitingAdd) {
      this.inFlight = this.inFlight.filter((p) => p !== waitingAdd);
      this.deliver(revokeProposalsPayload([waitingAdd.ref]), this.committers());
    }
    listener.close();
    this.removeMember(userId);
    this.maybeExecute();
    this.o.changed();
  }

  /** A member goes (left, or must be re-added after op 31): a Remove proposal, or a reset when one member is left. */
  private removeMember(userId: string): void {
    const leaf = this.leaves.indexOf(userId);
    const wasMember = this.members.delete(userId);
    this.transition?.waiting.delete(userId);
    if (!wasMember || leaf < 0) return;
    const remaining = [...this.members];
    if (remaining.length === 0) {
      this.resetState();
    } else if (remaining.length === 1) {
      const [sole] = remaining;
      if (sole === this.botId) this.soleMemberReset();
      else if (sole !== undefined) {
        // A listener left alone starts over with a fresh pending group, as a client does after op 24 epoch 1.
        this.resetState();
        this.listeners.get(sole)?.close();
        this.listeners.delete(sole);
        this.addListener(sole);
        this.flushProposals();
      }
    } else {
      this.pendingRemovals.push({ userId, leaf });
      this.flushProposals();
    }
  }

  private resetState(): void {
    this.established = false;
    this.epoch = 0n;
    this.members.clear();
    this.leaves = [];
    this.inFlight = [];
    this.pendingRemovals.length = 0;
    if (this.transition) clearTimeout(this.transition.timer);
    this.transition = undefined;
  }

  /** protocol.md "Sole member reset": op 24 epoch 1 then op 21 transition 0; the group starts over. */
  private soleMemberReset(): void {
    this.resetState();
    this.o.bot.sendJson(DaveOp.PrepareEpoch, { protocol_version: DAVE_VERSION, epoch: 1 });
    this.o.bot.sendJson(DaveOp.PrepareTransition, { protocol_version: DAVE_VERSION, transition_id: 0 });
  }

  // ---- from the bot (already delayed) ----

  onBotKeyPackage(payload: Buffer): void {
    let parsed: ParsedKeyPackage;
    try {
      parsed = parseKeyPackage(payload);
    } catch (error) {
      this.o.report(`voice gateway DAVE: unreadable key package from the bot: ${String(error)}`);
      return;
    }
    if (parsed.userId !== this.botId || parsed.cipherSuite !== 2) {
      this.o.report(
        `voice gateway DAVE: key package for user ${parsed.userId} ciphersuite ${parsed.cipherSuite} from the bot (${this.botId})`,
      );
      return;
    }
    // A new key package replaces the old one; a member sending one is starting over (reset, invalid commit).
    this.pending.set(this.botId, parsed);
    this.flushProposals();
  }

  onBotCommitWelcome(payload: Buffer): void {
    this.onCommit(this.botId, payload);
  }

  onReady(userId: string, transitionId: number): void {
    if (!this.transition || this.transition.id !== transitionId) return;
    this.transition.waiting.delete(userId);
    this.maybeExecute();
  }

  /** Op 31: the bot could not process a commit/welcome; it starts over with a new key package, so remove and re-add it. */
  onBotInvalid(transitionId: number, expected: boolean): void {
    this.invalidCommitWelcomes++;
    if (!expected)
      this.o.report(
        `voice gateway DAVE: the bot could not process the commit/welcome of transition ${transitionId} (op 31)`,
      );
    this.pending.delete(this.botId); // its next key package (op 26) follows
    this.removeMember(this.botId);
    this.maybeExecute();
    this.o.changed();
  }

  get damagedMessages(): number {
    return this.damaged;
  }

  // ---- the delivery service ----

  /** Who gets proposals and may commit: the members of an established group, else the group's creator. */
  private committers(): string[] {
    if (this.established) return [...this.members];
    if (this.o.committer === 'listener') {
      const first = this.listeners.keys().next();
      if (!first.done) return [first.value];
    }
    return [this.botId];
  }

  /** Proposes what is due (removals, then adds of pending users) unless a commit or a transition is under way. */
  private flushProposals(committer: DaveCommitter = this.o.committer): void {
    if (this.closed || this.inFlight.length > 0 || this.transition) return;
    const committers = committer === this.o.committer ? this.committers() : [this.botId];
    const proposals: InFlight[] = [];
    for (const { userId, leaf } of this.pendingRemovals.splice(0)) {
      proposals.push({ ...this.o.externalSender.remove(this.groupId, this.epoch, leaf), kind: 'remove', userId });
    }
    for (const [userId, keyPackage] of this.pending) {
      if (committers.includes(userId) || this.members.has(userId)) continue;
      proposals.push({
        ...this.o.externalSender.add(this.groupId, this.epoch, keyPackage.keyPackage),
        kind: 'add',
        userId,
      });
    }
    if (proposals.length === 0) return;
    this.inFlight = proposals;
    this.deliver(appendProposalsPayload(proposals.map((p) => p.message)), committers);
  }

  private deliver(payload: Buffer, recipients: string[]): void {
    // Every recipient caches the proposals before any commit is announced (they need them to process it).
    const commits: Array<{ userId: string; commit: Buffer }> = [];
    for (const userId of recipients) {
      if (userId === this.botId) {
        this.o.bot.sendBinary(DaveOp.Proposals, payload);
        continue;
      }
      const listener = this.listeners.get(userId);
      const commit = listener?.proposals(
        payload,
        [...this.connected, this.botId].filter((id) => id !== userId),
      );
      if (commit) commits.push({ userId, commit });
    }
    // A listener commits at once (no network in between): when listeners commit, theirs is first.
    const first = commits[0];
    if (first && (this.o.committer === 'listener' || !recipients.includes(this.botId)))
      this.onCommit(first.userId, first.commit);
  }

  private onCommit(from: string, payload: Buffer): void {
    if (this.closed) return;
    let parsed;
    try {
      parsed = parseCommitWelcome(payload);
    } catch (error) {
      this.o.report(`voice gateway DAVE: unreadable commit from ${from}: ${String(error)}`);
      return;
    }
    if (
      !parsed.groupId.equals(this.groupId) ||
      parsed.epoch !== this.epoch ||
      this.inFlight.length === 0 ||
      !this.committers().includes(from)
    ) {
      this.droppedCommits++; // a past epoch's commit, or one that lost to another member's
      return;
    }
    const expected = new Set(this.inFlight.map((p) => p.ref.toString('hex')));
    const got = new Set(parsed.proposalRefs.map((r) => r.toString('hex')));
    const adds = this.inFlight.filter((p) => p.kind === 'add');
    if (
      parsed.inlineProposals > 0 ||
      got.size !== expected.size ||
      [...got].some((r) => !expected.has(r)) ||
      (adds.length > 0 && !parsed.welcome)
    ) {
      this.o.report(
        `voice gateway DAVE: invalid commit from ${from} for epoch ${parsed.epoch} (must reference exactly the ${expected.size} proposals in flight${adds.length > 0 ? ' and carry a welcome' : ''})`,
      );
      return;
    }
    const removed = new Set(this.inFlight.filter((p) => p.kind === 'remove').map((p) => p.userId));
    const before = this.established ? new Set(this.members) : new Set([from]);
    this.leaves = this.applyToLeaves(this.established ? this.leaves : [from], parsed.proposalRefs, this.inFlight);
    const after = new Set([...before].filter((id) => !removed.has(id)));
    for (const add of adds) after.add(add.userId);
    const id = this.nextTransitionId;
    this.nextTransitionId = id >= 0xffff ? 1 : id + 1;
    this.epoch++;
    this.transitionEpochs.set(id, this.epoch);
    this.established = true;
    this.members = after;
    this.inFlight = [];
    const timer = setTimeout(() => this.execute(), TRANSITION_TIMEOUT_MS);
    this.transition = { id, epoch: this.epoch, waiting: new Set(after), members: after, timer };
    const tid = Buffer.alloc(2);
    tid.writeUInt16BE(id);
    for (const userId of before) {
      if (removed.has(userId)) continue;
      this.announce(userId, 'commit', id, tid, parsed.commit);
    }
    for (const add of adds) {
      const keyPackage = this.pending.get(add.userId);
      const welcome = keyPackage && parsed.welcome ? welcomeFor(parsed.welcome, keyPackage.ref) : undefined;
      if (!welcome) {
        this.o.report(`voice gateway DAVE: the commit from ${from} has no welcome for ${add.userId}`);
        continue;
      }
      this.announce(add.userId, 'welcome', id, tid, welcome);
    }
    for (const userId of after) this.pending.delete(userId);
    this.checkLeaves();
    this.o.changed();
    this.maybeExecute();
  }

  /** Op 29 (commit) or op 30 (welcome) to one member; a listener answers ready (op 23) or invalid (op 31) at once. */
  private announce(userId: string, kind: 'commit' | 'welcome', id: number, tid: Buffer, message: Buffer): void {
    if (userId === this.botId) {
      let sent = message;
      if (this.o.damage(kind)) {
        this.damaged++;
        sent = Buffer.from(message);
        sent[sent.length - 3] = (sent[sent.length - 3] ?? 0) ^ 0xff; // inside the last MAC / encrypted GroupInfo
      }
      this.o.bot.sendBinary(kind === 'commit' ? DaveOp.AnnounceCommit : DaveOp.Welcome, Buffer.concat([tid, sent]));
      return;
    }
    const listener = this.listeners.get(userId);
    if (!listener) return;
    if (listener.apply(kind, message)) this.transition?.waiting.delete(userId);
    else this.o.report(`voice gateway DAVE: listener ${userId} could not process the ${kind} of transition ${id}`);
  }

  private maybeExecute(): void {
    if (this.transition && this.transition.waiting.size === 0) this.execute();
  }

  /** Op 22 to everyone in the transition; then whatever was waiting for the next epoch is proposed. */
  private execute(): void {
    const transition = this.transition;
    if (!transition || this.closed) return;
    clearTimeout(transition.timer);
    this.transition = undefined;
    if (transition.members.has(this.botId)) {
      // Counted when the bot has it, after the network delay (sendJson runs then).
      this.o.bot.sendJson(DaveOp.ExecuteTransition, { transition_id: transition.id });
    }
    this.flushProposals();
    this.o.changed();
  }

  /** Called by the bot link when op 22 (or transition 0) actually reaches the bot. */
  botTransitioned(transitionId: number): void {
    this.botTransitions++;
    this.botEpoch = transitionId === 0 ? 0n : this.epochOfTransition(transitionId);
    this.firstTransitionAtMs ??= performance.now();
    this.o.changed();
  }

  private epochOfTransition(transitionId: number): bigint {
    return this.transitionEpochs.get(transitionId) ?? this.epoch;
  }

  // ---- media ----

  /** What the listeners make of one Opus payload from the bot (after transport decryption). */
  frame(payload: Buffer): FrameVerdict {
    if (payload.equals(SILENCE_FRAME)) return { kind: 'silence' };
    const e2ee = payload.length > 2 && payload[payload.length - 1] === 0xfa && payload[payload.length - 2] === 0xfa;
    if (!e2ee) return { kind: 'plaintext', afterTransition: this.firstTransitionAtMs !== undefined };
    let opus: Buffer | undefined;
    let anyDecryptedBefore = false;
    for (const listener of this.listeners.values()) {
      if (!listener.member) continue;
      anyDecryptedBefore ||= listener.decrypted > 0;
      const plain = listener.decrypt(this.botId, payload);
      opus ??= plain;
    }
    return { kind: 'e2ee', opus, failed: opus === undefined && anyDecryptedBefore };
  }

  state(): DaveGroupState {
    return {
      guildId: this.o.guildId,
      channelId: this.o.channelId,
      epoch: this.epoch,
      established: this.established,
      members: [...this.members],
      botTransitions: this.botTransitions,
      botEpoch: this.botEpoch,
      firstTransitionAtMs: this.firstTransitionAtMs,
      droppedCommits: this.droppedCommits,
      invalidCommitWelcomes: this.invalidCommitWelcomes,
      listeners: [...this.listeners.values()].map((l) => l.stats()),
    };
  }

  close(): void {
    this.closed = true;
    if (this.transition) clearTimeout(this.transition.timer);
    this.transition = undefined;
    for (const listener of this.listeners.values()) listener.close();
    this.listeners.clear();
  }
}
