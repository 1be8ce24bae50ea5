// The dashboard's trust in a member's view, by its own clock (moved here, never waited for): a view trusted within
// the window and asked of Discord again past it, "not a member" kept a shorter while, one lookup per member and
// server at a time, a forgotten lookup never remembered, and the bound on what is kept.
import { describe, expect, it } from 'vitest';
import type { Membership } from '../../../src/features/dashboard/dashboard-types.ts';
import { MEMBER_VIEW_LIMITS, MemberViews } from '../../../src/features/dashboard/member-views.ts';

const GUILD = '100000000000000001';
const OTHER_GUILD = '100000000000000002';
const USER = '200000000000000001';

const member = (guildId: string, manager = false): Membership => ({
  guildId,
  guildName: 'Seoul',
  guildLanguage: 'ko',
  manager,
  owner: false,
});

/** Discord as the views ask it: answers held until a test releases them, every question counted. */
function discord() {
  const asked: string[] = [];
  const waiting: Array<(answer: Membership | undefined) => void> = [];
  let answer: (guildId: string, userId: string) => Membership | undefined = (guildId) => member(guildId);
  let held = false;
  return {
    asked,
    answerWith(next: (guildId: string, userId: string) => Membership | undefined) {
      answer = next;
    },
    hold() {
      held = true;
    },
    release() {
      held = false;
      for (const resolve of waiting.splice(0)) resolve(undefined);
    },
    lookUp(guildId: string, userId: string): Promise<Membership | undefined> {
      asked.push(`${guildId}/${userId}`);
      const now = answer(guildId, userId);
      return held ? new Promise((resolve) => waiting.push(() => resolve(now))) : Promise.resolve(now);
    },
  };
}

function views(limits = MEMBER_VIEW_LIMITS) {
  let now = 1_000_000;
  const fake = discord();
  const made = new MemberViews(
    (guildId, userId) => fake.lookUp(guildId, userId),
    () => now,
    limits,
  );
  return { views: made, fake, pass: (ms: number) => (now += ms) };
}

describe('MemberViews', () => {
  it('trusts a view within the window, asks Discord again past it, and at once for a change', async () => {
    const { views: v, fake, pass } = views();
    expect(await v.view(GUILD, USER, false)).toEqual(member(GUILD));
    pass(MEMBER_VIEW_LIMITS.trustMs - 1);
    fake.answerWith(() => undefined); // kicked: Discord says Unknown Member from now on
    expect(await v.view(GUILD, USER, false)).toEqual(member(GUILD));
    expect(fake.asked).toHaveLength(1);
    pass(1);
    expect(await v.view(GUILD, USER, false)).toBeUndefined();
    expect(fake.asked).toHaveLength(2);

    const other = views();
    await other.views.view(GUILD, USER, false);
    other.fake.answerWith(() => undefined);
    expect(await other.views.view(GUILD, USER, true)).toBeUndefined();
    // Unknown Member replaced the view at once: the next page is refused with no time passing.
    expect(await other.views.view(GUILD, USER, false)).toBeUndefined();
    expect(other.fake.asked).toHaveLength(2);
  });

  it('keeps "not a member" only a short while, so a member who joins is let in soon', async () => {
    const { views: v, fake, pass } = views();
    fake.answerWith(() => undefined);
    expect(await v.view(GUILD, USER, false)).toBeUndefined();
    fake.answerWith((guildId) => member(guildId));
    pass(MEMBER_VIEW_LIMITS.absentMs - 1);
    expect(await v.view(GUILD, USER, false)).toBeUndefined();
    pass(1);
    expect(await v.view(GUILD, USER, false)).toEqual(member(GUILD));
    expect(fake.asked).toHaveLength(2);
  });

  it('asks Discord once for a member and server however many pages ask meanwhile', async () => {
    const { views: v, fake } = views();
    fake.hold();
    const pages = [v.view(GUILD, USER, false), v.view(GUILD, USER, true), v.view(GUILD, USER, false)];
    const elsewhere = v.view(OTHER_GUILD, USER, false);
    expect(fake.asked).toEqual([`${GUILD}/${USER}`, `${OTHER_GUILD}/${USER}`]);
    fake.release();
    expect(await Promise.all(pages)).toEqual([member(GUILD), member(GUILD), member(GUILD)]);
    expect(await elsewhere).toEqual(member(OTHER_GUILD));
  });

  it('does not remember a lookup forgotten while it was asked, and forgets a member at login', async () => {
    const { views: v, fake } = views();
    fake.hold();
    const before = v.view(GUILD, USER, false);
    v.forgetMember(USER); // a new login meanwhile
    fake.release();
    await before;
    expect(v.size).toBe(0);
    await v.view(GUILD, USER, false);
    await v.view(OTHER_GUILD, USER, false);
    expect(v.size).toBe(2);
    v.forgetServer(GUILD);
    expect(v.size).toBe(1);
    v.forgetMember(USER);
    expect(v.size).toBe(0);
    expect(fake.asked).toHaveLength(3);
  });

  it('keeps at most maxViews, the least recently asked member going first, and remembers no failure', async () => {
    const { views: v, fake } = views({ ...MEMBER_VIEW_LIMITS, maxViews: 3 });
    const users = ['300000000000000001', '300000000000000002', '300000000000000003', '300000000000000004'];
    for (const user of users) await v.view(GUILD, user, false);
    expect(v.size).toBe(3);
    await v.view(GUILD, users[1]!, false);
    await v.view(GUILD, users[0]!, false); // evicted first: asked again
    expect(fake.asked.filter((asked) => asked.endsWith(users[0]!))).toHaveLength(2);
    expect(fake.asked.filter((asked) => asked.endsWith(users[1]!))).toHaveLength(1);
    expect(v.size).toBe(3);

    const failing = views();
    failing.fake.lookUp = () => Promise.reject(new Error('Discord is down'));
    await expect(failing.views.view(GUILD, USER, false)).rejects.toThrow('Discord is down');
    expect(failing.views.size).toBe(0);
  });
});
