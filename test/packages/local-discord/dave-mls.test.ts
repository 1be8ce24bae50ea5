// The gateway's MLS framing checked against a real DAVE implementation (@snazzah/davey, as clients use it).
import { describe, expect, it } from 'vitest';
import davey, { type DAVESession, type MediaType, type ProposalsOperationType } from '@snazzah/davey';
import {
  appendProposalsPayload,
  ExternalSender,
  parseCommitWelcome,
  parseKeyPackage,
  snowflakeBytes,
  welcomedRefs,
  welcomeFor,
} from '@saybot/local-discord/dave/mls.ts';

const CHANNEL = '120000000000000001';
const BOT = '300000000000000001';
const ALICE = '200000000000000001';
const CAROL = '210000000000000001';
const APPEND = 0 as ProposalsOperationType;
const AUDIO = 0 as MediaType;

function member(userId: string, sender: ExternalSender): DAVESession {
  const session = new davey.DAVESession(1, userId, CHANNEL);
  session.setExternalSender(sender.package());
  return session;
}

describe('the fake gateway as MLS external sender', () => {
  it('signed external Add proposals are committed by davey; the welcome, cut per member, lets each one decrypt', () => {
    const gateway = new ExternalSender();
    const [bot, alice, carol] = [member(BOT, gateway), member(ALICE, gateway), member(CAROL, gateway)];
    const kpAlice = parseKeyPackage(alice.getSerializedKeyPackage());
    const kpCarol = parseKeyPackage(carol.getSerializedKeyPackage());
    expect([kpAlice.userId, kpAlice.cipherSuite]).toEqual([ALICE, 2]);
    const group = snowflakeBytes(CHANNEL);
    const adds = [gateway.add(group, 0n, kpAlice.keyPackage), gateway.add(group, 0n, kpCarol.keyPackage)];
    const { commit, welcome } = bot.processProposals(
      APPEND,
      appendProposalsPayload(adds.map((a) => a.message)).subarray(1),
      [ALICE, CAROL],
    );
    const parsed = parseCommitWelcome(Buffer.concat([commit!, welcome!]));
    expect(parsed.commit.equals(commit!)).toBe(true);
    expect(parsed.epoch).toBe(0n);
    expect(parsed.groupId.equals(group)).toBe(true);
    expect(parsed.proposalRefs.map((r) => r.toString('hex')).sort()).toEqual(
      adds.map((a) => a.ref.toString('hex')).sort(),
    );
    expect(
      welcomedRefs(parsed.welcome!)
        .map((r) => r.toString('hex'))
        .sort(),
    ).toEqual([kpAlice.ref, kpCarol.ref].map((r) => r.toString('hex')).sort());
    bot.processCommit(parsed.commit);
    alice.processWelcome(welcomeFor(parsed.welcome!, kpAlice.ref)!);
    carol.processWelcome(welcomeFor(parsed.welcome!, kpCarol.ref)!);
    // Alice's welcome holds only her secrets: Carol cannot join with it.
    expect(() => member(CAROL, gateway).processWelcome(welcomeFor(parsed.welcome!, kpAlice.ref)!)).toThrow();
    const frame = bot.encryptOpus(Buffer.from([0x78, 1, 2, 3, 4, 5]));
    expect(frame.subarray(-2)).toEqual(Buffer.from([0xfa, 0xfa]));
    expect(alice.decrypt(BOT, AUDIO, frame)).toEqual(Buffer.from([0x78, 1, 2, 3, 4, 5]));
    expect(carol.decrypt(BOT, AUDIO, frame)).toEqual(Buffer.from([0x78, 1, 2, 3, 4, 5]));
  });

  it('an external Remove proposal moves the group to the next epoch without the removed member', () => {
    const gateway = new ExternalSender();
    const [bot, alice, carol] = [member(BOT, gateway), member(ALICE, gateway), member(CAROL, gateway)];
    const kps = [alice, carol].map((s) => parseKeyPackage(s.getSerializedKeyPackage()));
    const group = snowflakeBytes(CHANNEL);
    const adds = kps.map((kp) => gateway.add(group, 0n, kp.keyPackage));
    const first = bot.processProposals(APPEND, appendProposalsPayload(adds.map((a) => a.message)).subarray(1), [
      ALICE,
      CAROL,
    ]);
    bot.processCommit(first.commit!);
    alice.processWelcome(welcomeFor(first.welcome!, kps[0]!.ref)!);
    carol.processWelcome(welcomeFor(first.welcome!, kps[1]!.ref)!);
    const remove = gateway.remove(group, 1n, carol.ownLeafIndex!);
    const payload = appendProposalsPayload([remove.message]).subarray(1);
    alice.processProposals(APPEND, payload, [BOT]);
    const second = bot.processProposals(APPEND, payload, [ALICE]);
    const parsed = parseCommitWelcome(second.commit!);
    expect([parsed.epoch, parsed.welcome, parsed.proposalRefs]).toEqual([1n, undefined, [remove.ref]]);
    bot.processCommit(parsed.commit);
    alice.processCommit(parsed.commit);
    expect(bot.getUserIds().sort()).toEqual([ALICE, BOT].sort());
    expect(alice.decrypt(BOT, AUDIO, bot.encryptOpus(Buffer.from([0x78, 9])))).toEqual(Buffer.from([0x78, 9]));
  });

  it('davey refuses proposals signed by a key other than the external sender it was given', () => {
    const gateway = new ExternalSender();
    const impostor = new ExternalSender(gateway.identity);
    const bot = member(BOT, gateway);
    const alice = member(ALICE, gateway);
    const kp = parseKeyPackage(alice.getSerializedKeyPackage());
    const forged = impostor.add(snowflakeBytes(CHANNEL), 0n, kp.keyPackage);
    expect(() => bot.processProposals(APPEND, appendProposalsPayload([forged.message]).subarray(1), [ALICE])).toThrow();
  });

  it('a key package is accepted bare (as davey sends it) or inside an MLSMessage (as the protocol document says)', () => {
    const bare = new davey.DAVESession(1, ALICE, CHANNEL).getSerializedKeyPackage();
    const wrapped = Buffer.concat([Buffer.from([0, 1, 0, 5]), bare]);
    expect(parseKeyPackage(wrapped)).toEqual(parseKeyPackage(bare));
    expect(parseKeyPackage(bare).keyPackage.equals(bare)).toBe(true);
  });
});
