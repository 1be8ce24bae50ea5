import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder, type SlashCommandIntegerOption } from 'discord.js';
import type { CommandModule } from '../src/bot/command.ts';
import { UserError } from '../src/bot/failures.ts';
import { formatNumber, t, type CommandLocalisations } from '../src/bot/i18n.ts';
import { showContent } from '../src/bot/replies.ts';
import { BUDGET_NAMES, serverValueAllowed, type BudgetName } from '../src/quota/budgets.ts';

const OPTIONS: Record<BudgetName, { option: string; names: CommandLocalisations; description: string; descriptions: CommandLocalisations; max: number }> = {
  guildMonthlyChars: {
    option: 'server_monthly_chars',
    names: { ko: '서버_월간_글자수', ja: 'サーバー月間文字数' },
    description: 'Characters this server may spend per month (0: remove the server\'s own limit)',
    descriptions: { ko: '이 서버가 한 달에 쓸 수 있는 글자 수 (0: 서버 자체 한도 없앰)', ja: 'このサーバーが 1 か月に使える文字数（0: サーバー独自の上限を解除）' },
    max: 100_000_000,
  },
  memberDailyChars: {
    option: 'member_daily_chars',
    names: { ko: '멤버_일일_글자수', ja: 'メンバー1日文字数' },
    description: 'Characters each member may spend per day, UTC (0: remove the server\'s own limit)',
    descriptions: { ko: '멤버 한 명이 하루(UTC)에 쓸 수 있는 글자 수 (0: 서버 자체 한도 없앰)', ja: 'メンバー 1 人が 1 日（UTC）に使える文字数（0: サーバー独自の上限を解除）' },
    max: 100_000_000,
  },
  memberCooldownSeconds: {
    option: 'cooldown_seconds',
    names: { ko: '대기_시간_초', ja: '待ち時間秒' },
    description: 'Seconds a member waits between requests that spend characters (0: remove)',
    descriptions: { ko: '글자를 쓰는 요청 사이에 멤버가 기다릴 시간(초) (0: 없앰)', ja: '文字を使うリクエストの間にメンバーが待つ秒数（0: 解除）' },
    max: 86_400,
  },
};

const integerOption = (name: BudgetName) => (o: SlashCommandIntegerOption) => {
  const spec = OPTIONS[name];
  return o
    .setName(spec.option)
    .setNameLocalizations(spec.names)
    .setDescription(spec.description)
    .setDescriptionLocalizations(spec.descriptions)
    .setMinValue(0)
    .setMaxValue(spec.max);
};

export const data = new SlashCommandBuilder()
  .setName('budget')
  .setNameLocalizations({ ko: '예산', ja: '予算' })
  .setDescription("Lower the operator's character budgets for this server (needs Manage Server); /usage shows them")
  .setDescriptionLocalizations({
    ko: '이 서버의 글자 예산을 운영자 한도보다 낮게 설정 (서버 관리 권한 필요). /usage 로 확인',
    ja: 'このサーバーの文字予算を運営者の上限より低く設定（サーバー管理権限が必要）。/usage で確認',
  })
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addIntegerOption(integerOption('guildMonthlyChars'))
  .addIntegerOption(integerOption('memberDailyChars'))
  .addIntegerOption(integerOption('memberCooldownSeconds'));

export const execute: CommandModule['execute'] = async (interaction, { accounting, store }) => {
  // default_member_permissions can be widened by a server admin in Integrations; the rule itself is checked here.
  if (!interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild)) throw new UserError('error.permission.budget');
  const locale = interaction.locale;
  const n = (value: number) => formatNumber(locale, value);
  const operator = accounting.operatorBudgets;
  const changes: { [K in BudgetName]?: number | null } = {};
  for (const name of BUDGET_NAMES) {
    const value = interaction.options.getInteger(OPTIONS[name].option);
    if (value === null) continue;
    // Discord enforces min/max for its own clients; a crafted value is refused like one above the operator's.
    if (value < 0 || !serverValueAllowed(operator, name, value)) {
      throw new UserError('budget.aboveOperator', { budget: t(locale, `budget.name.${name}`), limit: n(operator[name]) });
    }
    changes[name] = value === 0 ? null : value;
  }
  if (Object.keys(changes).length === 0) throw new UserError('budget.nothing');
  const server = await store.setGuildBudgets(interaction.guildId, changes, interaction.user.id);
  const value = (name: BudgetName, v: number) => (v > 0 ? n(v) : t(locale, 'budget.noLimit'));
  const summary = BUDGET_NAMES.map((name) => {
    const own = server[name];
    const shown = own === undefined
      ? t(locale, 'budget.fromOperator', { value: value(name, operator[name]) })
      : t(locale, 'budget.fromServer', { value: value(name, own), operator: value(name, operator[name]) });
    return t(locale, 'budget.line', { name: t(locale, `budget.name.${name}`), value: shown });
  }).join('; ');
  await showContent(interaction, t(locale, 'budget.updated', { summary }));
};
