// One truth: what the dashboard changes is what the slash commands show (and the reverse), through the same rules and
// the same refusals; the pages in the browser's language.
import { describe, expect, it } from 'vitest';
import { exportDictionary } from '../../../src/features/autoread/index-dictionary.ts';
import { importDictionary } from '../../../src/features/autoread/dictionary/dictionary.ts';
import { seoulWith, managerAndMember, useDashboard } from '../../support/dashboard.ts';
import { runCommand } from '../../support/harness.ts';
import { SEOUL } from '../../support/world.ts';

const MANAGER = '320000000000000001';
const MEMBER = '320000000000000002';

const h = useDashboard({
  guilds: [seoulWith(managerAndMember({ id: MANAGER, username: 'manager' }, { id: MEMBER, username: 'member' }))],
});

const base = `/servers/${SEOUL}`;
const command = (userId: string, name: string, subcommand: string, options: Record<string, string | number> = {}) =>
  runCommand(h, { guildId: SEOUL, userId, name, subcommand, options, locale: 'en-US' });

describe('the dashboard and the slash commands', () => {
  it('shows an entry added by /dictionary with who added it, and /dictionary list shows what the page added', async () => {
    await command(MANAGER, 'dictionary', 'add', { word: 'fromcommand', reading: 'from the command' });
    const browser = h.client();
    await browser.login(MANAGER);
    const page = await browser.get(`${base}/dictionary`);
    expect(page.body).toContain('fromcommand');
    expect(page.body).toMatch(/from the command[\s\S]*?<td class="who-when">manager<\/td>/);
    const added = await browser.post(`${base}/dictionary/add`, { word: 'frompage', reading: 'from the page' });
    expect(added.body).toContain('Added &quot;frompage&quot;.');
    expect((await command(MEMBER, 'dictionary', 'list')).content).toMatch(
      /fromcommand → from the command[\s\S]*frompage → from the page/,
    );
    await browser.post(`${base}/dictionary/move`, { kind: 'word', word: 'frompage', position: '1' });
    expect((await command(MEMBER, 'dictionary', 'list')).content).toMatch(/1\. frompage/);
  });

  it("refuses what /dictionary refuses, in /dictionary's words, and changes nothing", async () => {
    const browser = h.client();
    await browser.login(MANAGER);
    await browser.get(`${base}/dictionary`);
    const bad = await browser.post(`${base}/dictionary/add`, { kind: 'pattern', word: '(unclosed', reading: 'x' });
    expect(bad.status).toBe(422);
    const viaCommand = await command(MANAGER, 'dictionary', 'add', { pattern: '(unclosed', reading: 'x' });
    const reason = /Nothing was changed: (.*)$/.exec(viaCommand.content)?.[1] ?? 'missing';
    expect(bad.body.replaceAll('&quot;', '"').replaceAll('&#39;', "'")).toContain(reason.replace(/[\\`]/g, ''));
  });

  it('imports 500 entries in /dictionary export format, exports them back, and tries a sentence with them', async () => {
    const entries = Array.from({ length: 500 }, (_, i) => ({ word: `word${i}`, reading: `reading ${i}` }));
    const browser = h.client();
    await browser.login(MANAGER);
    await browser.get(`${base}/dictionary`);
    const imported = await browser.upload(`${base}/dictionary/import`, {
      name: 'd.json',
      content: exportDictionary(entries),
    });
    expect(imported.status).toBe(200);
    expect(imported.body).toContain('Imported 500 entries.');
    expect((await command(MEMBER, 'dictionary', 'list')).content).toMatch(/Dictionary \(500 in all\)/);
    const exported = await browser.get(`${base}/dictionary/export`);
    expect(exported.headers['content-disposition']).toMatch(/attachment/);
    const back = importDictionary(exported.body);
    expect(back.ok && back.value).toEqual(entries);
    const tried = await browser.post(`${base}/dictionary/try`, { text: 'say word7 now' });
    expect(tried.body).toMatch(/<blockquote[^>]*>say reading 7 now<\/blockquote>/);
    expect(tried.body).toContain('Hearing it in a paid voice would cost 17 characters.');
    const search = await browser.get(`${base}/dictionary?q=word49`);
    expect(search.body.match(/<tr>/g)?.length).toBe(1 + 11);
    // Emptied again: the other tests add entries to this server's dictionary, which 500 would fill.
    const emptied = await browser.upload(`${base}/dictionary/import`, {
      name: 'd.json',
      content: exportDictionary([]),
    });
    expect(emptied.body).toContain('Imported 0 entries.');
  });

  it('sets my voice as /myvoice does, refused as /myvoice refuses, and /myvoice show says so', async () => {
    const browser = h.client();
    await browser.login(MEMBER);
    const form = await browser.get(`${base}/myvoice`);
    // Every voice to pick from (the six documented presets here), not 25 at a time.
    expect(form.body.match(/<option value="voice-[^"]+">/g)?.length).toBeGreaterThanOrEqual(6);
    expect(form.body).toContain('<option value="voice-b-en-m-01">');
    const refused = await browser.post(`${base}/myvoice`, { speed: '9' });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Speed must be a number from 0.5 to 2; got 9.');
    const set = await browser.post(`${base}/myvoice`, { speed: '1.5', language: 'ko' });
    expect(set.status).toBe(200);
    const shown = (await command(MEMBER, 'myvoice', 'show')).content;
    expect(shown).toMatch(/1\.5/);
    expect(shown).toMatch(/ko/);
    expect((await browser.get(`${base}/myvoice`)).body).toMatch(/Now: .*1\.5/);
  });

  it("shows my data as /privacy show, and deletes it through /privacy delete's path", async () => {
    // A name: a string option (a whole number would go as an integer option, which volume is not).
    expect((await command(MEMBER, 'myvoice', 'set', { name: 'Mem' })).content).toContain(
      'Your defaults in this server',
    );
    const browser = h.client();
    await browser.login(MEMBER);
    const page = await browser.get(`${base}/mydata`);
    expect(page.body).toMatch(/<li>- [^<]+: \d+<\/li>/);
    const deleted = await browser.post(`${base}/mydata/delete`, {});
    expect(deleted.body).toContain('SayBot keeps nothing about you in this server.');
    expect((await command(MEMBER, 'privacy', 'show')).content).toBe('SayBot keeps nothing about you in this server.');
  });

  it("answers in the browser's language", async () => {
    const browser = h.client();
    const korean = await browser.get('/', { 'accept-language': 'ko-KR,ko;q=0.9,en;q=0.5' });
    expect(korean.body).toContain('Discord로 로그인');
    expect(korean.body).toContain('<html lang="ko">');
    const japanese = await browser.get('/', { 'accept-language': 'fr, ja;q=0.8' });
    expect(japanese.body).toContain('Discord でログイン');
  });
});

describe('samples', () => {
  it("quotes a paid sample, spends nothing until it is clicked, then plays it; the cache's copy plays at once for nothing", async () => {
    const browser = h.client();
    await browser.login(MANAGER);
    await browser.get(`${base}/myvoice`);
    const billed = h.sandbox.charactersBilled();
    const quoted = await browser.post(`${base}/myvoice/sample`, {});
    const price = Number(/name="paid" value="(\d+)"/.exec(quoted.body)?.[1]);
    expect(price).toBeGreaterThan(0);
    expect(quoted.body).toContain(`This would spend ${price} characters of the month`);
    expect(quoted.body).not.toContain('<audio');
    expect(h.sandbox.charactersBilled()).toBe(billed);

    const stale = await browser.post(`${base}/myvoice/sample`, { paid: String(price - 1) });
    expect(stale.body).not.toContain('<audio');
    expect(h.sandbox.charactersBilled()).toBe(billed);

    const played = await browser.post(`${base}/myvoice/sample`, { paid: String(price) });
    const src = /<audio controls src="([^"]+)"/.exec(played.body)?.[1] ?? '';
    expect(src).toMatch(new RegExp(`^/servers/${SEOUL}/samples/`));
    expect(played.body).toContain(`This spent ${price} characters.`);
    expect(h.sandbox.charactersBilled()).toBe(billed + price);
    const audio = await browser.get(src);
    expect(audio.status).toBe(200);
    expect(audio.headers['content-type']).toMatch(/^audio\//);

    const other = h.client();
    await other.login(MEMBER);
    expect((await other.get(src)).status).toBe(404);

    const again = await browser.post(`${base}/myvoice/sample`, {});
    expect(again.body).toContain('<audio');
    expect(again.body).toContain('This cost nothing');
    expect(h.sandbox.charactersBilled()).toBe(billed + price);
  });

  it('hears a tried sentence as the dictionary makes it, its price first', async () => {
    const browser = h.client();
    await browser.login(MANAGER);
    await browser.get(`${base}/dictionary`);
    await browser.post(`${base}/dictionary/add`, { word: 'hearme', reading: 'heard through the dashboard' });
    const tried = await browser.post(`${base}/dictionary/try`, { text: 'hearme' });
    expect(tried.body).toContain('Hear it');
    const from = h.sandbox.requests.length;
    const quoted = await browser.post(`${base}/dictionary/hear`, { text: 'hearme' });
    const price = /name="paid" value="(\d+)"/.exec(quoted.body)?.[1] ?? '';
    expect(price).toBe('27');
    const played = await browser.post(`${base}/dictionary/hear`, { text: 'hearme', paid: price });
    expect(played.body).toContain('<audio');
    expect(h.sandbox.requests.slice(from).map((r) => r.text)).toEqual(['heard through the dashboard']);
  });
});
