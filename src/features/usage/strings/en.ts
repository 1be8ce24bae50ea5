/** /usage and /budget in English; ./ko.ts and ./ja.ts give every key. */
export const en = {
  'budget.name.guildMonthlyChars': "the server's monthly characters",
  'budget.name.memberDailyChars': "a member's daily characters",
  'budget.name.memberCooldownSeconds': 'the cooldown in seconds',
  'budget.aboveOperator':
    "For {budget}, this server can set at most {limit}: that is the operator's limit, and a server may only lower it.",
  'budget.nothing': "Give at least one of the three budgets (0 removes this server's own limit).",
  'budget.updated': 'Budgets in this server now: {summary}.',
  'budget.line': '{name}: {value}',
  'budget.fromOperator': '{value} (operator)',
  'budget.fromServer': '{value} (this server; operator: {operator})',
  'budget.noLimit': 'no limit',
  'error.permission.budget':
    "Changing this server's budgets needs the Manage Server permission. Anyone can see them with /usage.",
  'usage.title': '**Usage in {month}** (resets {reset})',
  'usage.freeVoice':
    'Lines spoken by the free voice this month: {lines}, at no charge ({fallback} in place of the paid voice).',
  'usage.freeEngines': 'Of them, by who spoke: VOICEVOX {voicevox}, the speech server {speech}, eSpeak NG {espeak}.',
  'usage.guild':
    'This server: {spent, plural, one {# character} other {# characters}} spent, {saved} saved by the cache; {budget}.',
  'usage.guildBudget': 'monthly budget {limit}, {left} left',
  'usage.noGuildBudget': 'no monthly budget',
  'usage.bot':
    'Whole bot: {used} of {limit} used{source}, {remaining} left; SayBot sent {spent}, the cache saved {saved}.',
  'usage.fromService': " (the service's count as of {at})",
  'usage.ownCount': " (SayBot's own count: the service sent no figures this month)",
  'usage.botUsedUp':
    'Whole bot: the {limit} characters of the month are used up, as the service said; SayBot sent {spent}, the cache saved {saved}.',
  'usage.botBudget':
    "Bot-wide budget (every server and user install together): {limit} characters a month, {left} left; the rest of the plan stays for the owner's own use.",
  'usage.noBotBudget': 'Bot-wide budget: none (SayBot may use the whole plan).',
  'usage.member': 'You today: {spent, plural, one {# character} other {# characters}}; {budget}.',
  'usage.outside.where': 'Your use of SayBot outside servers (direct messages, group DMs, servers it is not in):',
  'usage.outside.shared': 'All use outside servers shares one monthly budget: {left} of {limit} characters left.',
  'usage.memberBudget': 'daily budget {limit}, {left} left, resets {reset}',
  'usage.noMemberBudget': 'no daily budget',
  'usage.cooldown':
    'Cooldown: {seconds} s between requests that spend characters (audio from the cache is free and never waits).',
  'usage.queue':
    'Voice queue: at most {clips, plural, one {# clip} other {# clips}} and about {seconds} s of speech per server, {member, plural, one {# request} other {# requests}} waiting per member.',
  'usage.exhausted':
    'The voice service said the monthly quota is used up: one request at a time goes out to see whether it is back (a plan upgrade or a top-up ends this at once); it resets {reset} at the latest.',
  'usage.chart.title': 'Characters in {month} (UTC)',
  'usage.chart.perDay': 'Per day',
  'usage.chart.monthToDate': 'Spent this month',
  'usage.chart.spent': 'Spent',
  'usage.chart.saved': 'Saved by the cache',
  'usage.chart.budget': 'Monthly budget',
  'usage.chart.topMembers': 'Top members',
  'usage.chart.noData': 'Nothing yet',
  'usage.chart.formerMember': 'A former member',
  'usage.chart.alt':
    "Chart of this server's characters in {month}: per day, spent and saved by the cache, the month so far against its budget, and the top members",
  'usage.chart.freeRate':
    'No chart this time: drawing one counts as a request that costs no characters, and you made {limit} within a minute, the most one member may. Try again in {seconds} s.',
  // What Discord shows for /usage and /budget (key names: src/core/i18n/catalogue.ts).
  'command.budget': 'budget',
  'command.budget.description':
    "Lower the operator's character budgets for this server (needs Manage Server); /usage shows them",
  'command.usage': 'usage',
  'command.usage.description': "This month's characters: this server, the whole bot, and yours today",
  'option.server_monthly_chars': 'server_monthly_chars',
  'option.server_monthly_chars.description':
    "Characters this server may spend per month (0: remove the server's own limit)",
  'option.member_daily_chars': 'member_daily_chars',
  'option.member_daily_chars.description':
    "Characters each member may spend per day, UTC (0: remove the server's own limit)",
  'option.cooldown_seconds': 'cooldown_seconds',
  'option.cooldown_seconds.description': 'Seconds a member waits between requests that spend characters (0: remove)',
} as const;
