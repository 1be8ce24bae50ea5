// The managers' auto-read page over HTTP: refused to a member (seeing and changing) and without the CSRF token; its
// settings changed through /autoread settings' rules (a value out of range refused in its words) and seen by the
// command; the ignore list and the pool as /autoread show has them.
import { describe, expect, it } from 'vitest';
import { seoulWith, signedIn, managerAndMember, useDashboard } from '../../support/dashboard.ts';
import { runCommand } from '../../support/harness.ts';
import { LOUNGE, SEOUL, SEOUL_TEXT } from '../../support/world.ts';
import { openSqliteStore } from '../../../src/app/store.ts';

const MANAGER = '370000000000000001';
const MEMBER = '370000000000000002';
const STRANGER = '370000000000000099';
/** A second binding's channels, unknown to SayBot's cache: shown by ID. */
const STUDY_TEXT = '370000000000000101';
const STUDY_VOICE = '370000000000000102';

const h = useDashboard({
  guilds: [seoulWith(managerAndMember({ id: MANAGER, username: 'manager' }, { id: MEMBER, username: 'member' }))],
});

const base = `/servers/${SEOUL}/autoread`;
const show = async () =>
  (await runCommand(h, { guildId: SEOUL, userId: MANAGER, name: 'autoread', subcommand: 'show', locale: 'en-US' }))
    .content;

describe('the auto-read page', () => {
  it('is refused to a member, and every change without the CSRF token', async () => {
    const member = await signedIn(h, MEMBER, `/servers/${SEOUL}`);
    expect((await member.get(`/servers/${SEOUL}`)).body).not.toContain(base);
    expect((await member.get(base)).status).toBe(403);
    expect((await member.post(`${base}/settings`, { max_length: '500' })).status).toBe(403);
    expect((await member.post(`${base}/ignore`, { member: MANAGER })).status).toBe(403);
    const manager = await signedIn(h, MANAGER, base);
    expect((await manager.post(`${base}/settings`, { max_length: '500' }, { csrf: null })).status).toBe(403);
    expect((await manager.post(`${base}/settings`, { max_length: '500' }, { origin: null })).status).toBe(403);
    expect(await show()).not.toContain('longest message: 500 characters');
  });

  it("changes a setting through /autoread settings' rules, and refuses what they refuse in their words", async () => {
    const manager = await signedIn(h, MANAGER, base);
    const page = await manager.get(base);
    // Every declared setting but the role one, with what it does.
    expect(page.body).toContain('name="max_length"');
    expect(page.body).toContain('Longest message read, in characters');
    const refused = await manager.post(`${base}/settings`, { max_length: '5' });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('The longest message must be from 20 to 1000 characters.');
    const changed = await manager.post(`${base}/settings`, { max_length: '321', say_name: 'false' });
    expect(changed.status).toBe(200);
    expect(changed.body).toContain('longest message: 321 characters');
    const shown = await show();
    expect(shown).toContain('longest message: 321 characters');
    expect(shown).toContain("say the author's name: off");
  });

  it("a form posted whole applies only the fields changed on the page: /autoread settings' change since it loaded stays", async () => {
    const manager = await signedIn(h, MANAGER, base);
    const page = (await manager.get(base)).body;
    expect(page).toContain('name="was_autojoin" value="false"');
    await runCommand(h, {
      guildId: SEOUL,
      userId: MANAGER,
      name: 'autoread',
      subcommand: 'settings',
      options: { autojoin: true },
      locale: 'en-US',
    });
    expect(await show()).toContain('join when a member joins: on');
    // The page as it loaded (autojoin off), announce turned on there: autojoin is not sent back as a change.
    const loaded = { autojoin: 'false', was_autojoin: 'false', read_bots: 'false', was_read_bots: 'false' };
    const saved = await manager.post(`${base}/settings`, { ...loaded, announce: 'true', was_announce: 'false' });
    expect(saved.status).toBe(200);
    const shown = await show();
    expect(shown).toContain('join when a member joins: on');
    expect(shown).toContain('announce joins and leaves: on');
    // Nothing changed on the page: nothing to save.
    expect((await manager.post(`${base}/settings`, loaded)).status).toBe(400);
  });

  it('lists each binding, and stops one of them (CSRF as every change) while the other reads on', async () => {
    const store = openSqliteStore(h.databasePath);
    const reading = async () =>
      (await store.autoRead.get(SEOUL)).bindings.map((binding) => [binding.voiceChannelId, binding.reading]);
    try {
      await store.autoRead.start(SEOUL, { textChannelId: SEOUL_TEXT, voiceChannelId: LOUNGE, startedBy: MANAGER });
      await store.autoRead.start(SEOUL, { textChannelId: STUDY_TEXT, voiceChannelId: STUDY_VOICE, startedBy: MANAGER });
      const manager = await signedIn(h, MANAGER, base);
      const page = (await manager.get(base)).body;
      expect(page).toContain('Reading the chat of channel #general aloud in voice channel lounge.');
      expect(page).toContain(`Reading the chat of channel #${STUDY_TEXT} aloud in voice channel ${STUDY_VOICE}.`);
      expect(page).toContain(`name="voiceChannel" value="${LOUNGE}"`);
      expect(page).toContain(`name="voiceChannel" value="${STUDY_VOICE}"`);
      expect((await manager.post(`${base}/stop`, { voiceChannel: LOUNGE }, { csrf: null })).status).toBe(403);
      const member = await signedIn(h, MEMBER, `/servers/${SEOUL}`);
      expect((await member.post(`${base}/stop`, { voiceChannel: LOUNGE })).status).toBe(403);
      expect(await reading()).toEqual([
        [LOUNGE, true],
        [STUDY_VOICE, true],
      ]);
      const stopped = await manager.post(`${base}/stop`, { voiceChannel: LOUNGE });
      expect(stopped.status).toBe(200);
      expect(stopped.body).toContain('Stopped reading into lounge; the binding is kept.');
      expect(stopped.body).not.toContain(`name="voiceChannel" value="${LOUNGE}"`);
      expect(stopped.body).toContain(`name="voiceChannel" value="${STUDY_VOICE}"`);
      expect(await reading()).toEqual([
        [LOUNGE, false],
        [STUDY_VOICE, true],
      ]);
      await store.autoRead.stop(SEOUL);
    } finally {
      await store.close();
    }
  });

  it('refuses to ignore an ID that is no member of the server, in its words', async () => {
    const manager = await signedIn(h, MANAGER, base);
    const refused = await manager.post(`${base}/ignore`, { member: STRANGER });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('No member of this server has that ID.');
    expect(await show()).toContain('Not read: nobody.');
  });

  it('ignores and reads again a member, and removes a voice from the pool, as /autoread show has them', async () => {
    // The member has never spoken to SayBot nor signed in (whichever test ran first): their name is still shown.
    const manager = await signedIn(h, MANAGER, base);
    await manager.post(`${base}/ignore`, { member: MEMBER });
    expect(await show()).toContain(`Not read: <@${MEMBER}>.`);
    expect((await manager.get(base)).body).toContain('Read member again');
    await manager.post(`${base}/unignore`, { member: MEMBER });
    expect(await show()).toContain('Not read: nobody.');

    await runCommand(h, {
      guildId: SEOUL,
      userId: MANAGER,
      name: 'autoread',
      subcommand: 'voice_add',
      options: { voice: 'voice-b-ja-f-01' },
    });
    expect((await manager.get(base)).body).toContain('Remove voice-b-ja-f-01 from the pool');
    const removed = await manager.post(`${base}/pool/remove`, { voice: 'voice-b-ja-f-01' });
    expect(removed.body).toContain('Removed voice-b-ja-f-01 from the voice pool.');
    expect(await show()).toContain('none chosen');
  });
});
