// A listening member of a voice channel: a real DAVE session (@snazzah/davey, the same library @discordjs/voice
// uses) that joins the MLS group through the gateway and decrypts what the bot sends, as a Discord client would.
import davey, { type DAVESession, type MediaType, type ProposalsOperationType } from '@snazzah/davey';
import { parseKeyPackage, type ParsedKeyPackage } from './mls.ts';

// davey declares these as const enums, which isolated modules cannot read: the values are the protocol's.
const AUDIO = 0 as MediaType;
const DAVE_VERSION = 1;

export interface ListenerStats {
  userId: string;
  /** In the established group (welcomed, or one of its creators). */
  member: boolean;
  /** E2EE frames this listener decrypted. */
  decrypted: number;
  /** E2EE frames it failed to decrypt after it had decrypted one (a glitch a real listener hears). */
  failures: number;
  /** E2EE frames it could not decrypt before its first success (not yet in the sender's epoch). */
  beforeJoined: number;
  /** performance.now() of its first decrypted frame. */
  firstDecryptedAtMs: number | undefined;
}

export class DaveListener {
  readonly userId: string;
  readonly session: DAVESession;
  keyPackage: ParsedKeyPackage;
  member = false;
  decrypted = 0;
  failures = 0;
  beforeJoined = 0;
  firstDecryptedAtMs: number | undefined;

  constructor(userId: string, channelId: string, externalSenderPackage: Buffer) {
    this.userId = userId;
    this.session = new davey.DAVESession(DAVE_VERSION, userId, channelId);
    this.session.setExternalSender(externalSenderPackage);
    this.keyPackage = parseKeyPackage(this.session.getSerializedKeyPackage());
  }

  /** Op 27 payload (after the opcode): returns op 28's payload when it has something to commit. */
  proposals(payload: Buffer, connectedUserIds: string[]): Buffer | undefined {
    const result = this.session.processProposals(
      (payload[0] ?? 0) as ProposalsOperationType,
      payload.subarray(1),
      connectedUserIds,
    );
    if (!result.commit) return undefined;
    return result.welcome ? Buffer.concat([result.commit, result.welcome]) : result.commit;
  }

  /** Processes a commit (op 29) or welcome (op 30); false when it could not (it would answer op 31). */
  apply(kind: 'commit' | 'welcome', message: Buffer): boolean {
    try {
      if (kind === 'commit') this.session.processCommit(message);
      else this.session.processWelcome(message);
      this.member = true;
      return true;
    } catch {
      return false;
    }
  }

  get leafIndex(): number | undefined {
    return this.session.ownLeafIndex ?? undefined;
  }

  /** The Opus frame inside an E2EE frame from `senderId`, or undefined when this listener cannot decrypt it. */
  decrypt(senderId: string, frame: Buffer): Buffer | undefined {
    if (!this.member || !this.session.ready) {
      this.beforeJoined++;
      return undefined;
    }
    try {
      const opus = this.session.decrypt(senderId, AUDIO, frame);
      this.decrypted++;
      this.firstDecryptedAtMs ??= performance.now();
      return opus;
    } catch {
      if (this.decrypted > 0) this.failures++;
      else this.beforeJoined++;
      return undefined;
    }
  }

  stats(): ListenerStats {
    return {
      userId: this.userId,
      member: this.member,
      decrypted: this.decrypted,
      failures: this.failures,
      beforeJoined: this.beforeJoined,
      firstDecryptedAtMs: this.firstDecryptedAtMs,
    };
  }

  close(): void {
    try {
      this.session.reset();
    } catch {
      // Already reset.
    }
  }
}
