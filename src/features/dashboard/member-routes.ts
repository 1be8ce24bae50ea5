// Every member's pages in a server: My voice (/myvoice's settings) and My data (/privacy show and delete).
import { ESPEAK_VOICES } from '../../core/voice-catalogue/voices.ts';
import { usableVoice } from '../../core/sourcing/voice-choice.ts';
import type { Hono } from 'hono';
import { z } from 'zod';
import { MEMBER_READING_LIST, type MemberReading } from '../autoread/index.ts';
import { forgetMember, traceLines } from '../privacy/index.ts';
import { describeSettings } from '../speaking/index-words.ts';
import { readSettingOptions } from '../../core/interactions/options.ts';
import { describeSettings as describeDeclared } from '../../core/interactions/setting-text.ts';
import { SPEECH_SETTING_LIST } from '../../core/settings/setting-declarations.ts';
import type { MemberDefaults, MemberDefaultsChange } from '../../core/store/member-defaults-store.ts';
import type { SettingDeclaration } from '../../core/settings/setting-types.ts';
import type { Ctx, DashboardEnv, RouteDeps } from './dashboard-types.ts';
import { formOptions, SettingFields } from './form-options.ts';
import type { SampleResult, Samples } from './samples.ts';
import { audit, form, guard, pageContext, refusedNotice, serverAccess, userOf } from './guards.ts';
import type { PageContext } from './pages/layout.ts';
import { myDataPage, myVoicePage, type VoiceChoice } from './pages/member-pages.ts';
import { formatNumber, t } from './strings.ts';

/** Cloned voices listed at most (a server keeps far fewer). */
const MAX_CLONED_SHOWN = 200;

const Paid = z.object({ paid: z.coerce.number().int().min(0).max(1_000_000).optional() });

/** /myvoice set's settings: every speech setting but /emote's exaggeration (a preset carries that), then auto-read's. */
const MY_SETTINGS: ReadonlyArray<readonly [string, SettingDeclaration]> = [
  ...SPEECH_SETTING_LIST.filter(([name]) => name !== 'exaggeration'),
  ...MEMBER_READING_LIST,
];

/** The member's settings in their language: the voice settings, then how auto-read treats them (as /myvoice show). */
function describeMember(locale: string, stored: MemberDefaults): string {
  const reading = describeDeclared(locale, MEMBER_READING_LIST, stored, { separator: ' · ', omitUnset: true });
  return [describeSettings(locale, stored), reading].filter((part) => part !== '').join(' · ');
}

export function addMemberRoutes(app: Hono<DashboardEnv>, deps: RouteDeps & { samples: Samples }): void {
  const { store, bot, logger, samples } = deps;
  guard(app, '/servers/:guildId/myvoice', serverAccess(bot));
  guard(app, '/servers/:guildId/mydata', serverAccess(bot));

  /** Every voice this server may use: its cloned voices, the presets, the engines' voices, and the free voice where it is offered. */
  async function voiceChoices(guildId: string): Promise<VoiceChoice[]> {
    const cloned = await store.voiceLibrary.list(guildId, { limit: MAX_CLONED_SHOWN });
    return [
      ...cloned.map((voice) => ({ id: voice.name, label: voice.name })),
      ...bot.voices.presets.map((voice) => ({
        id: voice.id,
        label: `${voice.language} ${voice.gender} · ${voice.character}`,
      })),
      ...bot.voices.engines().map((voice) => ({
        id: voice.id,
        label: [voice.name, voice.credit, 'free'].filter((part) => part !== undefined).join(' · '),
      })),
      ...(bot.voices.free ? ESPEAK_VOICES.map((voice) => ({ id: voice.id, label: `${voice.language} · free` })) : []),
    ];
  }

  async function showVoice(c: Ctx, notice?: PageContext['notice'], status: 200 | 400 = 200, sample?: SampleResult) {
    const server = c.get('membership');
    const stored = await store.memberDefaults.get(server.guildId, userOf(c));
    const current = stored === undefined ? undefined : describeMember(c.get('locale'), stored);
    const voices = await voiceChoices(server.guildId);
    // The form shows each setting as it stands (a switch on or off, a field filled in).
    const values = Object.fromEntries(Object.entries(stored ?? {}));
    return c.html(myVoicePage(pageContext(c, notice), server, MY_SETTINGS, current, voices, values, sample), status);
  }

  // A sample of my voice: free at once, else its price first (samples.ts).
  app.post('/servers/:guildId/myvoice/sample', async (c) => {
    const given = await form(c, Paid);
    const server = c.get('membership');
    const result = await samples.sample({
      guildId: server.guildId,
      userId: userOf(c),
      guildLanguage: server.guildLanguage,
      text: t(c.get('locale'), 'dashboard.sample.text'),
      paidCharacters: given.paid,
    });
    if (result.kind === 'audio')
      audit(logger, 'sample', { userId: userOf(c), guildId: server.guildId }, { characters: result.characters });
    return showVoice(c, undefined, 200, result);
  });

  app.get('/servers/:guildId/myvoice', (c) => showVoice(c));

  app.post('/servers/:guildId/myvoice', async (c) => {
    const locale = c.get('locale');
    const fields = await form(c, SettingFields);
    const { guildId } = c.get('membership');
    let settings: MemberDefaultsChange;
    try {
      settings = readSettingOptions(formOptions(fields), MY_SETTINGS, guildId) as MemberDefaultsChange & MemberReading;
      if (Object.keys(settings).length === 0)
        return showVoice(c, { kind: 'error', text: t(locale, 'error.myvoice.nothing') }, 400);
      if (settings.voice !== undefined)
        settings.voice = (await usableVoice(store, guildId, settings.voice, bot.voices.saving)).voiceId;
    } catch (error) {
      return showVoice(c, refusedNotice(c, error), 400);
    }
    const stored = await store.memberDefaults.set(guildId, userOf(c), settings);
    audit(logger, 'myvoice.set', { userId: userOf(c), guildId }, { settings: Object.keys(settings).length });
    return showVoice(c, { kind: 'ok', text: t(locale, 'myvoice.set', { settings: describeMember(locale, stored) }) });
  });

  app.post('/servers/:guildId/myvoice/clear', async (c) => {
    const { guildId } = c.get('membership');
    const cleared = await store.memberDefaults.clear(guildId, userOf(c));
    audit(logger, 'myvoice.clear', { userId: userOf(c), guildId });
    return showVoice(c, { kind: 'ok', text: t(c.get('locale'), cleared ? 'myvoice.cleared' : 'myvoice.none') });
  });

  async function showData(c: Ctx, notice?: PageContext['notice']) {
    const server = c.get('membership');
    const traces = traceLines(c.get('locale'), await store.privacy.describeMember(server.guildId, userOf(c)));
    return c.html(myDataPage(pageContext(c, notice), server, [...traces.own, ...traces.kept]));
  }

  app.get('/servers/:guildId/mydata', (c) => showData(c));

  app.post('/servers/:guildId/mydata/delete', async (c) => {
    const locale = c.get('locale');
    const { guildId } = c.get('membership');
    const userId = userOf(c);
    const report = await forgetMember(bot.forgetting, userId, guildId);
    bot.autoread?.forgetMember(userId, guildId);
    audit(
      logger,
      'privacy.delete',
      { userId, guildId },
      { deleted: report.deleted, anonymised: report.anonymised, voices: report.voices.length },
    );
    return showData(c, {
      kind: 'ok',
      text: t(locale, 'privacy.deleted', {
        deleted: formatNumber(locale, report.deleted),
        anonymised: formatNumber(locale, report.anonymised),
      }),
    });
  });
}
