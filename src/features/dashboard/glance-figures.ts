// A server's figures at a glance, from SayBot's own data as its pages and commands read them.
import type { UsageReport } from '../../core/quota/accounting.ts';
import { type OperatorBudgets } from '../../core/config.ts';
import type { Store } from '../../core/store/types.ts';
import type { DashboardBot, Membership, VoiceNow } from './dashboard-types.ts';

export interface ServerGlance {
  /** The voice the member chose here (/myvoice), or undefined: the server's default reads them. */
  voice: string | undefined;
  /** /usage's report for this member in this server. */
  report: UsageReport;
  /** What the member spent here this month (the report's month), cache hits not counted. */
  memberMonth: number;
  voiceNow: VoiceNow;
  /** A manager's alone. */
  manager?: {
    budgets: OperatorBudgets;
    autoread: { reading: boolean; binding: { text: string; voice: string } | undefined };
  };
}

export async function serverGlance(
  deps: { store: Store; bot: DashboardBot },
  server: Membership,
  userId: string,
): Promise<ServerGlance> {
  const { store, bot } = deps;
  const { guildId } = server;
  const [stored, report] = await Promise.all([
    store.memberDefaults.get(guildId, userId),
    bot.accounting.report(guildId, userId),
  ]);
  // The report has the member's day only: their month is one bounded read of their day totals, in the report's month.
  const memberMonth = await store.spends.memberMonthSpent(guildId, userId, report.month);
  const glance: ServerGlance = {
    voice: stored?.voice ?? undefined,
    report,
    memberMonth,
    voiceNow: bot.voiceNow(guildId, userId),
  };
  if (!server.manager) return glance;
  const [budgets, state] = await Promise.all([bot.accounting.budgetsFor(guildId), store.autoRead.get(guildId)]);
  const name = (channelId: string) => bot.channelName(guildId, channelId) ?? channelId;
  // The binding reading now (the first of several), else the first kept: the auto-read page lists them all.
  const shown =
    state.bindings.find((binding) => bot.autoread?.isReading(guildId, binding.voiceChannelId) === true) ??
    state.bindings[0];
  return {
    ...glance,
    manager: {
      budgets,
      autoread: {
        reading: bot.autoread?.isReading(guildId) === true,
        binding: shown && { text: name(shown.textChannelId), voice: name(shown.voiceChannelId) },
      },
    },
  };
}
