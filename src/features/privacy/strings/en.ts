/** /privacy in English; ./ko.ts and ./ja.ts give every key. */
export const en = {
  'privacy.show.none': 'SayBot keeps nothing about you in this server.',
  'privacy.show.header': 'What SayBot keeps about you in this server (records):',
  'privacy.show.footer':
    'Spend records count characters for budgets and /usage. `/privacy delete` deletes your own records and removes your ID from the rest (spends stay anonymised so the totals add up).',
  'privacy.trace.member_defaults': 'Your voice defaults (/myvoice)',
  'privacy.trace.member_output_defaults': 'Your output default (/output)',
  'privacy.trace.presets': 'Presets you saved (as their author)',
  'privacy.trace.voice_library': 'Voices you cloned',
  'privacy.trace.clone_name_reservations': 'A clone of yours under way',
  'privacy.trace.spends': 'Spend records (characters per request)',
  'privacy.trace.budget_holds': 'Characters held for your requests under way',
  'privacy.trace.guild_budgets': 'Server budgets you set (as their author)',
  'privacy.trace.auto_read': 'Auto-read you started or set up (as its author)',
  'privacy.trace.dictionary_entries': 'Dictionary entries you wrote (as their author)',
  'privacy.trace.guild_output_defaults': 'The server output default you set (as its author)',
  'privacy.trace.other': 'Other records ({table})',
  'privacy.deleted':
    'Deleted what SayBot kept about you in this server: {deleted, plural, one {# record} other {# records}} removed, {anonymised, plural, one {# record no longer names} other {# records no longer name}} you (spend records stay, anonymised, so the server totals add up).',
  'privacy.deleted.voices': 'Voices you cloned, deleted with their audio purged from the cache: {names}.',
  'privacy.outside.none': 'SayBot keeps nothing about you from its use outside servers.',
  'privacy.outside.header':
    'What SayBot keeps about you from its use outside servers (direct messages, group DMs, servers it is not in), in records:',
  'privacy.outside.deleted':
    'Deleted what SayBot kept about you from its use outside servers: {deleted, plural, one {# record} other {# records}} removed, {anonymised, plural, one {# record no longer names} other {# records no longer name}} you (spend records stay, anonymised; what you spent today still counts against your daily budget).',
  'privacy.server.outside':
    '`/privacy server` deletes the data of a server SayBot is in, and there is none here. `/privacy delete` deletes yours.',
  'privacy.server.confirm':
    "This deletes ALL of SayBot's data for this server: presets, cloned voices, dictionary, settings, budgets, auto-read and every member's defaults (spend records stay, anonymised). To confirm within {minutes, plural, one {# minute} other {# minutes}}, run `/privacy server confirm:{code}`.",
  'privacy.server.deleted':
    "All of SayBot's data for this server is deleted: {deleted, plural, one {# record} other {# records}} removed, {anonymised, plural, one {# spend record} other {# spend records}} anonymised, {voices, plural, one {# cloned voice} other {# cloned voices}} deleted.",
  'error.privacy.badCode':
    'That confirmation code is wrong or has expired. Run `/privacy server` without a code for a new one.',
  'command.privacy': 'privacy',
  'command.privacy.description': 'What SayBot keeps about you in this server, and deleting it',
  'command.privacy.show': 'show',
  'command.privacy.show.description': 'Show what SayBot keeps about you in this server',
  'command.privacy.delete': 'delete',
  'command.privacy.delete.description': 'Delete what SayBot keeps about you in this server',
  'command.privacy.server': 'server',
  'command.privacy.server.description': "Delete all of this server's data (Manage Server; asks to confirm)",
  'option.confirm': 'confirm',
  'option.confirm.description': 'The confirmation code the first /privacy server showed',
  'privacy.trace.auto_read_voice_pool': "Voices you added to auto-read's pool (as who added them)",
  'privacy.trace.auto_read_member_voices': "Your voice from auto-read's pool",
  'privacy.trace.auto_read_ignored': "Auto-read's list of members it does not read (as who added someone)",
  // The managers' records about a member: shown, never removed by the member's own /privacy delete.
  'privacy.kept.header':
    "Kept as the server managers' record about you (`/privacy delete` keeps it; a manager's `/autoread unignore` or `/privacy server` removes it):",
  'privacy.kept.auto_read_ignored': "Auto-read does not read you (the managers' ignore list)",
} as const;
