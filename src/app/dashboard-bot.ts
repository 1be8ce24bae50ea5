// The running bot as the dashboard sees it (src/features/dashboard/dashboard-types.ts' DashboardBot): SayBot's own
// view of a server and its members (discord.js's caches, or Discord asked by the bot), never the browser's or the
// member's guild list. Manage Server is discord.js's computation from the server's roles and owner.
import { DiscordAPIError, PermissionFlagsBits, RESTJSONErrorCodes } from 'discord.js';
import { soundRemover } from '../features/speaking/index.ts';
import type { Config } from '../core/config.ts';
import { freeVoiceInstalled } from '../core/free-voice/free-voice-engine.ts';
import type { Logger } from '../core/log.ts';
import { catalogueVoices } from '../core/voice-catalogue/preset-voices.ts';
import type { DashboardBot, Membership } from '../features/dashboard/index.ts';
import type { SayBot, SayBotCore } from './saybot.ts';

/** Discord's answers that mean "not a member here" rather than a failure. */
const NOT_A_MEMBER = new Set<number | string>([RESTJSONErrorCodes.UnknownMember, RESTJSONErrorCodes.UnknownUser]);

export function dashboardBot(bot: SayBot, core: SayBotCore, config: Config, logger: Logger): DashboardBot {
  const guildOf = (guildId: string) => (bot.serves(guildId) ? bot.client.guilds.cache.get(guildId) : undefined);
  return {
    serves: (guildId) => guildOf(guildId) !== undefined,
    async membership(guildId, userId, fresh): Promise<Membership | undefined> {
      const guild = guildOf(guildId);
      if (guild === undefined) return undefined;
      let member;
      try {
        member = await guild.members.fetch({ user: userId, force: fresh, cache: true });
      } catch (error) {
        if (error instanceof DiscordAPIError && NOT_A_MEMBER.has(error.code)) return undefined;
        throw error;
      }
      return {
        guildId,
        guildName: guild.name,
        guildLanguage: guild.preferredLocale,
        manager: guild.ownerId === userId || member.permissions.has(PermissionFlagsBits.ManageGuild),
      };
    },
    displayName: (guildId, userId) => guildOf(guildId)?.members.cache.get(userId)?.displayName,
    autoread: bot.autoread,
    // Offered where it can speak: chosen in FREE_VOICE and its package installed (as the commands offer it).
    voices: {
      presets: catalogueVoices(config.extraVoices),
      free: config.freeVoice.chosen && freeVoiceInstalled(),
    },
    speech: core.speech,
    forgetting: {
      store: core.store,
      purgeVoice: (voiceId) => core.speech.purgeVoice(voiceId),
      removeSounds: soundRemover(bot.client, logger),
      anonymiseRequests: (guildId, userId) => core.accounting.anonymiseRequests(guildId, userId),
    },
  };
}
