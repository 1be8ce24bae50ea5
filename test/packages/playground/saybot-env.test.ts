// SayBot's environment in the playground: its dashboard lets every person be tried with "Open the dashboard" in a
// row, all from one address, where SayBot's own bound (10 login requests a minute, two a sign-in) stops the sixth.
// The real bot with that environment's DASHBOARD_LOGINS_PER_MINUTE, and its real dashboard over HTTP; beside it the
// same dashboard with the owner's setting at 3, to show the setting is the limit.
import { describe, expect, it } from 'vitest';
import { PLAYGROUND_LOGINS_PER_MINUTE, saybotEnvironment } from '@saybot/playground';
import { seoulWith, useDashboard } from '../../support/dashboard.ts';

const PEOPLE = Array.from({ length: 8 }, (_, i) => ({ id: `36000000000000000${i}`, username: `person${i}` }));

describe("the playground's environment for SayBot", () => {
  const h = useDashboard({
    guilds: [seoulWith(PEOPLE, 'en-US')],
    env: { DASHBOARD_LOGINS_PER_MINUTE: String(PLAYGROUND_LOGINS_PER_MINUTE) },
  });

  it('sets the login limit the playground needs', () => {
    const env = saybotEnvironment({
      token: 'token',
      discord: h.discord,
      sandbox: h.sandbox,
      dashboardPort: 8080,
      clientSecret: 'secret',
    });
    expect(env['DASHBOARD_LOGINS_PER_MINUTE']).toBe(String(PLAYGROUND_LOGINS_PER_MINUTE));
    expect(PLAYGROUND_LOGINS_PER_MINUTE).toBeGreaterThanOrEqual(2 * 100);
  });

  it('lets eight people sign in one after another from one address within a minute', async () => {
    const browser = h.client();
    const answers: number[] = [];
    for (const person of PEOPLE) answers.push((await browser.login(person.id)).status);
    expect(answers).toEqual(PEOPLE.map(() => 303));
    expect((await browser.get('/')).body).toContain('Seoul');
  });
});

describe('DASHBOARD_LOGINS_PER_MINUTE', () => {
  const h = useDashboard({ guilds: [seoulWith(PEOPLE, 'en-US')], env: { DASHBOARD_LOGINS_PER_MINUTE: '3' } });

  it("is the dashboard's bound on login requests from one address", async () => {
    const flooder = h.client();
    const answers: number[] = [];
    for (let i = 0; i < 5; i += 1) answers.push((await flooder.get('/login')).status);
    expect(answers).toEqual([302, 302, 302, 429, 429]);
    expect((await h.client().get('/login')).status).toBe(302);
  });
});
