// The managers' auto-read page; every change goes to the command's store rows and the running reader at once.
import type { Hono } from 'hono';
import { z } from 'zod';
import {
  AUTO_READ_SETTING_LIST,
  IGNORED_MAX,
  describeSettings,
  settingChangesFrom,
  settingsChanged,
} from '../autoread/index.ts';
import { describeMembers, voiceLabel } from '../autoread/index-voices.ts';
import { UserError } from '../../core/interactions/failures.ts';
import { usableVoice } from '../../core/sourcing/voice-choice.ts';
import type { Ctx, DashboardBot, DashboardEnv, RouteDeps } from './dashboard-types.ts';
import { formOptions, SettingFields } from './form-options.ts';
import { audit, form, guard, managersOnly, pageContext, refusedNotice, serverAccess, userOf } from './guards.ts';
import { autoreadPage } from './pages/autoread-page.ts';
import type { PageContext } from './pages/layout.ts';
import { t } from './strings.ts';

const Member = z.object({ member: z.string().regex(/^\d{17,20}$/) });
const Voice = z.object({ voice: z.string().min(1).max(120) });
const Binding = z.object({ voiceChannel: z.string().regex(/^\d{17,20}$/) });

/** /autoread show's lines are Discord markdown: mentions become names (SayBot's cache), code marks go. */
function plain(bot: DashboardBot, guildId: string, line: string): string {
  return line
    .replace(/<@(\d{17,20})>/g, (_, id: string) => `@${bot.displayName(guildId, id) ?? id}`)
    .replaceAll('`', '');
}

export function addAutoreadRoutes(app: Hono<DashboardEnv>, deps: RouteDeps): void {
  const { store, bot, logger } = deps;
  const base = '/servers/:guildId/autoread';
  guard(app, base, serverAccess(bot), managersOnly);

  async function show(c: Ctx, notice?: PageContext['notice'], status: 200 | 400 = 200) {
    const locale = c.get('locale');
    const server = c.get('membership');
    const state = await store.autoRead.get(server.guildId);
    const guild = { id: server.guildId, preferredLocale: server.guildLanguage };
    const [members, pool, ignored] = await Promise.all([
      describeMembers(store, guild, bot.voices.saving, locale, state.settings.voices === 'distinct'),
      store.autoReadMembers.pool(server.guildId),
      store.autoReadMembers.ignored(server.guildId),
    ]);
    const poolLabels = await Promise.all(
      pool.map(async (voice) => ({
        voice,
        label: plain(bot, server.guildId, await voiceLabel(store, server.guildId, voice)),
      })),
    );
    return c.html(
      autoreadPage(pageContext(c, notice), server, {
        bindings: state.bindings.map((binding) => ({
          voiceChannelId: binding.voiceChannelId,
          reading: binding.reading,
          text: `#${bot.channelName(server.guildId, binding.textChannelId) ?? binding.textChannelId}`,
          voice: bot.channelName(server.guildId, binding.voiceChannelId) ?? binding.voiceChannelId,
        })),
        current: describeSettings(locale, state.settings),
        settings: AUTO_READ_SETTING_LIST,
        values: Object.fromEntries(Object.entries(state.settings)),
        members: members.map((line) => plain(bot, server.guildId, line)),
        pool: poolLabels,
        ignored: ignored.map((id) => ({ id, name: bot.displayName(server.guildId, id) ?? id })),
      }),
      status,
    );
  }

  const refused = (c: Ctx, error: unknown) => show(c, refusedNotice(c, error), 400);

  app.get(base, (c) => show(c));

  app.post(`${base}/settings`, async (c) => {
    const fields = await form(c, SettingFields);
    const { guildId } = c.get('membership');
    let changes;
    try {
      changes = settingChangesFrom(formOptions(fields), guildId);
      if (Object.keys(changes).length === 0) throw new UserError('dashboard.autoread.nothing');
    } catch (error) {
      return refused(c, error);
    }
    const updated = await store.autoRead.setSettings(guildId, changes, userOf(c));
    // The running reader reads with them from the next message on, as after /autoread settings (whichever shard).
    await bot.autoreadChanged(guildId);
    audit(logger, 'autoread.settings', { userId: userOf(c), guildId }, { settings: Object.keys(changes).length });
    const locale = c.get('locale');
    return show(c, { kind: 'ok', text: settingsChanged(locale, updated, bot.voices.free) });
  });

  // As /autoread stop in that voice channel: the binding is kept, not read; the shard reading it stops at once.
  app.post(`${base}/stop`, async (c) => {
    const given = await form(c, Binding, 'voiceChannel');
    const { guildId } = c.get('membership');
    const stopped = await store.autoRead.stop(guildId, given.voiceChannel);
    await bot.autoreadChanged(guildId);
    audit(logger, 'autoread.stop', { userId: userOf(c), guildId });
    const voice = bot.channelName(guildId, given.voiceChannel) ?? given.voiceChannel;
    const key = stopped ? 'dashboard.autoread.stopped' : 'dashboard.autoread.notReading';
    return show(c, { kind: 'ok', text: t(c.get('locale'), key, { voice }) });
  });

  app.post(`${base}/ignore`, async (c) => {
    const given = await form(c, Member, 'member');
    const { guildId } = c.get('membership');
    // Asked of Discord, not taken on trust: a mistyped ID is refused, and the member is then known by name.
    if ((await bot.membership(guildId, given.member, true)) === undefined)
      return refused(c, new UserError('dashboard.autoread.notMember'));
    const result = await store.autoReadMembers.ignore(guildId, given.member, userOf(c), IGNORED_MAX);
    if (result === 'full') return refused(c, new UserError('autoread.ignore.full', { max: IGNORED_MAX }));
    await bot.autoreadChanged(guildId);
    audit(logger, 'autoread.ignore', { userId: userOf(c), guildId });
    return show(c, { kind: 'ok', text: t(c.get('locale'), 'dashboard.autoread.ignored') });
  });

  app.post(`${base}/unignore`, async (c) => {
    const given = await form(c, Member, 'member');
    const { guildId } = c.get('membership');
    await store.autoReadMembers.unignore(guildId, given.member);
    await bot.autoreadChanged(guildId);
    audit(logger, 'autoread.unignore', { userId: userOf(c), guildId });
    return show(c, { kind: 'ok', text: t(c.get('locale'), 'dashboard.autoread.unignored') });
  });

  // Out of the pool: a cloned voice by its name while it exists, else the entry as stored (as /autoread voice_remove).
  app.post(`${base}/pool/remove`, async (c) => {
    const given = await form(c, Voice, 'voice');
    const { guildId } = c.get('membership');
    const typed = given.voice;
    const voiceId = await usableVoice(store, guildId, typed, bot.voices.saving).then(
      (usable) => usable.voiceId,
      () => typed,
    );
    const removed = await store.autoReadMembers.removeFromPool(guildId, voiceId);
    audit(logger, 'autoread.pool.remove', { userId: userOf(c), guildId });
    const key = removed ? 'dashboard.autoread.poolRemoved' : 'dashboard.autoread.poolNotIn';
    return show(c, { kind: 'ok', text: t(c.get('locale'), key, { voice: typed }) });
  });
}
