// The voice gateway's side of MLS (RFC 9420) as DAVE v1 uses it: ciphersuite 2 (P-256, SHA-256), the gateway as
// the group's one external sender signing Add/Remove proposals, and just enough parsing of key packages, commits
// and welcomes to route them (who is added, which proposals a commit covers, which epoch it is for).
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { TlsReader, TlsWriter } from './tls.ts';

export const MLS_VERSION_10 = 1;
export const CIPHERSUITE_P256 = 2;
const WIRE_PUBLIC_MESSAGE = 1;
const WIRE_WELCOME = 3;
const WIRE_KEY_PACKAGE = 5;
const SENDER_MEMBER = 1;
const SENDER_EXTERNAL = 2;
const CONTENT_PROPOSAL = 2;
const CONTENT_COMMIT = 3;
const PROPOSAL_ADD = 1;
const PROPOSAL_REMOVE = 3;
const CREDENTIAL_BASIC = 1;
const PROPOSAL_OR_REF_PROPOSAL = 1;
const PROPOSAL_OR_REF_REFERENCE = 2;

/** A Discord snowflake as the 8-byte big-endian basic-credential identity (and the MLS group ID for a channel). */
export function snowflakeBytes(id: string): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(id));
  return out;
}

function refHash(label: string, value: Uint8Array): Buffer {
  const input = new TlsWriter().vector(Buffer.from(label, 'ascii')).vector(value).finish();
  return createHash('sha256').update(input).digest();
}

/** The gateway's signing identity: a P-256 key and a basic credential. */
export class ExternalSender {
  private readonly privateKey: KeyObject;
  /** The uncompressed SEC1 point, as MLS carries P-256 signature keys. */
  readonly publicKey: Uint8Array;
  readonly identity: Uint8Array;

  constructor(identity: Uint8Array = Buffer.from('fake-discord voice gateway', 'ascii')) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.publicKey = Buffer.concat([
      Uint8Array.of(4),
      Buffer.from(jwk.x ?? '', 'base64url'),
      Buffer.from(jwk.y ?? '', 'base64url'),
    ]);
    this.identity = identity;
  }

  /** Payload of binary op 25: ExternalSender { signature_key<V>; Credential { u16 basic; identity<V> } }. */
  package(): Buffer {
    return new TlsWriter().vector(this.publicKey).u16(CREDENTIAL_BASIC).vector(this.identity).finish();
  }

  /** An external Add proposal for this key package (bare KeyPackage bytes), framed and signed. */
  add(groupId: Uint8Array, epoch: bigint, keyPackage: Uint8Array): SignedProposal {
    return this.propose(groupId, epoch, new TlsWriter().u16(PROPOSAL_ADD).raw(keyPackage).finish());
  }

  /** An external Remove proposal for this leaf index. */
  remove(groupId: Uint8Array, epoch: bigint, leafIndex: number): SignedProposal {
    return this.propose(groupId, epoch, new TlsWriter().u16(PROPOSAL_REMOVE).u32(leafIndex).finish());
  }

  /**
   * MLSMessage { version, wire_format = public_message, PublicMessage { FramedContent, FramedContentAuthData } }.
   * The signature is SignWithLabel("FramedContentTBS") over {version, wire_format, content} (no group context for
   * an external sender), ECDSA P-256 SHA-256 in DER as MLS does for ECDSA. No membership tag: not a member.
   */
  private propose(groupId: Uint8Array, epoch: bigint, proposal: Uint8Array): SignedProposal {
    const content = new TlsWriter()
      .vector(groupId)
      .u64(epoch)
      .u8(SENDER_EXTERNAL)
      .u32(0)
      .vector(new Uint8Array(0))
      .u8(CONTENT_PROPOSAL)
      .raw(proposal)
      .finish();
    const tbs = new TlsWriter().u16(MLS_VERSION_10).u16(WIRE_PUBLIC_MESSAGE).raw(content).finish();
    const signContent = new TlsWriter().vector(Buffer.from('MLS 1.0 FramedContentTBS', 'ascii')).vector(tbs).finish();
    const signature = sign('sha256', signContent, this.privateKey);
    const authenticated = new TlsWriter().u16(WIRE_PUBLIC_MESSAGE).raw(content).vector(signature).finish();
    const message = new TlsWriter().u16(MLS_VERSION_10).raw(authenticated).finish();
    return { message, ref: refHash('MLS 1.0 Proposal Reference', authenticated) };
  }
}

export interface SignedProposal {
  /** The MLSMessage as sent in op 27. */
  message: Buffer;
  /** Its ProposalRef: RefHash("MLS 1.0 Proposal Reference", AuthenticatedContent). */
  ref: Buffer;
}

/** Payload of binary op 27, append: [u8 0][MLSMessage proposal_messages<V>]. */
export function appendProposalsPayload(messages: Uint8Array[]): Buffer {
  return new TlsWriter().u8(0).vector(Buffer.concat(messages)).finish();
}

/** Payload of binary op 27, revoke: [u8 1][ProposalRef proposal_refs<V>]. */
export function revokeProposalsPayload(refs: Uint8Array[]): Buffer {
  const inner = new TlsWriter();
  for (const ref of refs) inner.vector(ref);
  return new TlsWriter().u8(1).vector(inner.finish()).finish();
}

export interface ParsedKeyPackage {
  /** The bare KeyPackage (what an Add proposal carries). */
  keyPackage: Buffer;
  cipherSuite: number;
  /** The basic credential's identity read as a big-endian u64 snowflake. */
  userId: string;
  ref: Buffer;
}

function skipCapabilities(r: TlsReader): void {
  for (let i = 0; i < 5; i++) r.vector(); // versions, cipher_suites, extensions, proposals, credentials
}

/** LeafNode; returns the identity of its credential. */
function readLeafNode(r: TlsReader): Uint8Array {
  r.vector(); // encryption_key
  r.vector(); // signature_key
  const credentialType = r.u16();
  if (credentialType !== CREDENTIAL_BASIC) throw new Error(`MLS: credential type ${credentialType} is not basic`);
  const identity = r.vector();
  skipCapabilities(r);
  const source = r.u8();
  if (source === 1) {
    r.u64();
    r.u64(); // lifetime
  } else if (source === 3) {
    r.vector(); // parent_hash
  } else if (source !== 2) {
    throw new Error(`MLS: unknown leaf node source ${source}`);
  }
  r.vector(); // extensions
  r.vector(); // signature
  return identity;
}

/** Op 26 payload: a bare KeyPackage (what davey sends) or an MLSMessage holding one (what the document says). */
export function parseKeyPackage(payload: Uint8Array): ParsedKeyPackage {
  const r = new TlsReader(payload);
  if (r.u16() !== MLS_VERSION_10) throw new Error('MLS: key package version is not MLS 1.0');
  const second = r.u16();
  let start = 0;
  if (second === WIRE_KEY_PACKAGE) {
    start = 4;
    if (r.u16() !== MLS_VERSION_10) throw new Error('MLS: key package version is not MLS 1.0');
    r.u16();
  }
  const cipherSuite =
    second === WIRE_KEY_PACKAGE ? new DataView(payload.buffer, payload.byteOffset + 6, 2).getUint16(0) : second;
  r.vector(); // init_key
  const identity = readLeafNode(r);
  r.vector(); // extensions
  r.vector(); // signature
  if (identity.length !== 8)
    throw new Error(`MLS: credential identity is ${identity.length} bytes, not an 8-byte user ID`);
  const keyPackage = Buffer.from(payload.subarray(start, r.offset));
  return {
    keyPackage,
    cipherSuite,
    userId: new DataView(identity.buffer, identity.byteOffset, 8).getBigUint64(0).toString(),
    ref: refHash('MLS 1.0 KeyPackage Reference', keyPackage),
  };
}

export interface ParsedCommit {
  /** The MLSMessage holding the commit, as broadcast in op 29. */
  commit: Buffer;
  groupId: Buffer;
  epoch: bigint;
  /** The committer's leaf index when a member sent it. */
  senderLeaf: number | undefined;
  /** ProposalRefs the commit covers. */
  proposalRefs: Buffer[];
  /** Proposals included by value (DAVE allows none). */
  inlineProposals: number;
  /** The Welcome after the commit, if any. */
  welcome: Buffer | undefined;
}

/** Op 28 payload: [MLSMessage commit][optional Welcome (bare, or an MLSMessage holding one)]. */
export function parseCommitWelcome(payload: Uint8Array): ParsedCommit {
  const r = new TlsReader(payload);
  if (r.u16() !== MLS_VERSION_10) throw new Error('MLS: commit version is not MLS 1.0');
  if (r.u16() !== WIRE_PUBLIC_MESSAGE) throw new Error('MLS: a commit must be a PublicMessage');
  const groupId = Buffer.from(r.vector());
  const epoch = r.u64();
  const senderType = r.u8();
  let senderLeaf: number | undefined;
  if (senderType === SENDER_MEMBER) senderLeaf = r.u32();
  else if (senderType === SENDER_EXTERNAL) r.u32();
  r.vector(); // authenticated_data
  if (r.u8() !== CONTENT_COMMIT) throw new Error('MLS: op 28 does not carry a commit');
  const proposals = new TlsReader(r.vector());
  const proposalRefs: Buffer[] = [];
  let inlineProposals = 0;
  while (proposals.remaining > 0) {
    const kind = proposals.u8();
    if (kind === PROPOSAL_OR_REF_REFERENCE) proposalRefs.push(Buffer.from(proposals.vector()));
    else if (kind === PROPOSAL_OR_REF_PROPOSAL) {
      inlineProposals++;
      break; // DAVE allows none; no need to parse the rest
    } else throw new Error(`MLS: unknown ProposalOrRef type ${kind}`);
  }
  if (r.u8() === 1) {
    readLeafNode(r); // UpdatePath.leaf_node
    r.vector(); // UpdatePath.nodes
  }
  r.vector(); // signature
  r.vector(); // confirmation_tag
  if (senderType === SENDER_MEMBER) r.vector(); // membership_tag
  const commit = Buffer.from(payload.subarray(0, r.offset));
  let welcome: Buffer | undefined;
  if (r.remaining > 0) {
    let rest = payload.subarray(r.offset);
    const view = new DataView(rest.buffer, rest.byteOffset, rest.byteLength);
    if (rest.length > 4 && view.getUint16(0) === MLS_VERSION_10 && view.getUint16(2) === WIRE_WELCOME)
      rest = rest.subarray(4);
    welcome = Buffer.from(rest);
  }
  return { commit, groupId, epoch, senderLeaf, proposalRefs, inlineProposals, welcome };
}

interface WelcomeSecret {
  newMember: Buffer;
  bytes: Buffer;
}

function parseWelcome(welcome: Uint8Array): { cipherSuite: number; secrets: WelcomeSecret[]; groupInfo: Buffer } {
  const r = new TlsReader(welcome);
  const cipherSuite = r.u16();
  const secretsReader = new TlsReader(r.vector());
  const secrets: WelcomeSecret[] = [];
  while (secretsReader.remaining > 0) {
    const start = secretsReader.offset;
    const newMember = Buffer.from(secretsReader.vector());
    secretsReader.vector(); // kem_output
    secretsReader.vector(); // ciphertext
    secrets.push({ newMember, bytes: Buffer.from(secretsReader.since(start)) });
  }
  const groupInfo = Buffer.from(r.vector());
  if (r.remaining !== 0) throw new Error('MLS: trailing bytes after the Welcome');
  return { cipherSuite, secrets, groupInfo };
}

/** KeyPackageRefs the Welcome holds group secrets for. */
export function welcomedRefs(welcome: Uint8Array): Buffer[] {
  return parseWelcome(welcome).secrets.map((s) => s.newMember);
}

/** The Welcome cut down to the secrets for one key package (op 30 sends each new member only its own). */
export function welcomeFor(welcome: Uint8Array, keyPackageRef: Uint8Array): Buffer | undefined {
  const parsed = parseWelcome(welcome);
  const mine = parsed.secrets.find((s) => s.newMember.equals(keyPackageRef));
  if (!mine) return undefined;
  return new TlsWriter().u16(parsed.cipherSuite).vector(mine.bytes).vector(parsed.groupInfo).finish();
}
