// A helper whose gateway Discord closes for good (4010 to 4014, not 4004) is not logged in again: its log line, the
// owner console's helper list and the console's doctor say so, over HTTP against the real bot and the local Discord.
import { describe, expect, it } from 'vitest';
import { seoulWith, signedIn, managerAndMember, useDashboard } from '../../support/dashboard.ts';
import { SEOUL } from '../../support/world.ts';

const OWNER = '380000000000000941';
const MEMBER = '380000000000000942';

const h = useDashboard({
  guilds: [seoulWith(managerAndMember({ id: OWNER, username: 'owner' }, { id: MEMBER, username: 'member' }), 'en-US')],
  helpers: 1,
  discord: { applicationOwnerId: OWNER },
});

const words = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&#39;', "'")
    .replace(/\s+/g, ' ')
    .trim();

describe('a helper whose gateway Discord closed for good', () => {
  it('is told as final in its log line, the console and the console doctor', async () => {
    h.discord.dropGateway(SEOUL, 4014, h.helpers[0]!.userId);
    await expect.poll(() => h.logs().includes('"code":"helper-gateway-lost"'), { timeout: 20_000 }).toBe(true);
    const line = h
      .logs()
      .trim()
      .split('\n')
      .map((one) => JSON.parse(one) as Record<string, unknown>)
      .find((one) => one['code'] === 'helper-gateway-lost')!;
    expect(line).toMatchObject({ closeCode: 4014, final: true });
    expect(line['msg']).not.toContain('until it is back');
    expect(line['msg']).toContain('restarted');
    const owner = await signedIn(h, OWNER, '/owner');
    const page = (await owner.get('/owner')).body;
    const part = /aria-labelledby="helpers-title"[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
    const rows = [...part.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => words(row[1] ?? ''));
    expect(rows[1]).toBe('SayBot 2 closed by Discord (4014): restart SayBot once fixed 0 0');
    await owner.post('/owner/doctor', {});
    const checks = /<table id="doctor-checks">[\s\S]*?<\/table>/.exec((await owner.get('/owner')).body)?.[0] ?? '';
    expect(words(checks)).toContain(
      'Helper bot 1 failed Discord closed its gateway for good (4014 DisallowedIntents): it stays offline until SayBot is restarted',
    );
  });
});
