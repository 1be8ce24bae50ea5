import type { ChatInputCommandInteraction } from 'discord.js';
import type { CommandContext, CommandModule } from '../src/bot/interactions/command.ts';
import { attachmentOption, slashCommand, stringOption, subcommand } from '../src/bot/interactions/command-builder.ts';
import { UserError } from '../src/bot/interactions/failures.ts';
import { t, type MessageKey } from '../src/bot/i18n.ts';
import { fitLines } from '../src/bot/frontend/listing.ts';
import type { Requirements } from '../src/bot/interactions/preconditions.ts';
import { downloadClip } from '../src/bot/frontend/reference-clip.ts';
import { echo, showContent, showResult } from '../src/bot/interactions/replies.ts';
import {
  MAX_READING_LENGTH,
  MAX_WORD_LENGTH,
  exportDictionary,
  importDictionary,
  type DictionaryProblem,
} from '../src/text/dictionary.ts';

/** A file of MAX_ENTRIES entries at their longest, in 4-byte characters, with JSON around them, fits. */
export const MAX_IMPORT_BYTES = 512 * 1024;

/** Anyone may list and export the dictionary; changing it changes how the whole server is read. */
const manager = { manageGuild: { refusal: 'dictionary.permission' } } as const;
export const requires: Requirements = { subcommands: { add: manager, remove: manager, import: manager } };

// Longer than the rules allow, so a too-long word is answered by the dictionary's own rule (it names the limit).
const wordOption = () => stringOption('word', { required: true, maxLength: MAX_WORD_LENGTH * 2 });

export const data = slashCommand('dictionary', requires)
  .addSubcommand(subcommand('dictionary.add').addStringOption(wordOption()).addStringOption(stringOption('reading', { required: true, maxLength: MAX_READING_LENGTH * 2 })))
  .addSubcommand(subcommand('dictionary.remove').addStringOption(wordOption()))
  .addSubcommand(subcommand('dictionary.list'))
  .addSubcommand(subcommand('dictionary.export'))
  .addSubcommand(subcommand('dictionary.import').addAttachmentOption(attachmentOption('file', { required: true })));

type Handler = (interaction: ChatInputCommandInteraction<'cached'>, context: CommandContext) => Promise<void>;

/** A refused change, in the caller's language: "Nothing was changed: entry 3: the word is empty." */
function refused(locale: string, problem: DictionaryProblem): UserError {
  const text = (p: DictionaryProblem): string => {
    const key = `dictionary.problem.${p.code}` as MessageKey;
    if (p.code !== 'badEntry') return t(locale, key, p.params);
    const reason = `dictionary.problem.${String(p.params['reason'])}` as MessageKey;
    return t(locale, key, { ...p.params, reason: t(locale, reason, { max: reason.endsWith('wordTooLong') ? MAX_WORD_LENGTH : MAX_READING_LENGTH }) });
  };
  const params = problem.code === 'duplicate' ? { ...problem.params, word: echo(String(problem.params['word']), 60) } : problem.params;
  return new UserError('dictionary.refused', { problem: text({ ...problem, params }) });
}

/** After a change: the reader uses the new entries from the next message on. */
async function refreshReader(interaction: ChatInputCommandInteraction<'cached'>, { store, autoread }: CommandContext): Promise<void> {
  if (autoread?.isReading(interaction.guildId)) autoread.setDictionary(interaction.guildId, await store.dictionary.list(interaction.guildId));
}

const add: Handler = async (interaction, context) => {
  const word = interaction.options.getString('word', true);
  const reading = interaction.options.getString('reading', true);
  const result = await context.store.dictionary.put(interaction.guildId, word, reading, interaction.user.id);
  if (result.status === 'refused') throw refused(interaction.locale, result.problem);
  await refreshReader(interaction, context);
  await showResult(interaction, result.status === 'added' ? 'dictionary.added' : 'dictionary.replaced', {
    word: echo(result.entry.word, 60), reading: echo(result.entry.reading, 110),
  });
};

const remove: Handler = async (interaction, context) => {
  const word = interaction.options.getString('word', true);
  const removed = await context.store.dictionary.remove(interaction.guildId, word);
  if (!removed) throw new UserError('dictionary.unknown', { word: echo(word, 60) });
  await refreshReader(interaction, context);
  await showResult(interaction, 'dictionary.removed', { word: echo(removed.word, 60) });
};

const list: Handler = async (interaction, { store }) => {
  const entries = await store.dictionary.list(interaction.guildId);
  if (entries.length === 0) {
    await showResult(interaction, 'dictionary.empty');
    return;
  }
  const locale = interaction.locale;
  const lines = entries.map((entry) => `• ${echo(entry.word, 60)} → ${echo(entry.reading, 110)}`);
  await showContent(interaction, [t(locale, 'dictionary.list.header', { count: entries.length }), ...fitLines(lines, locale)].join('\n'));
};

const exportAll: Handler = async (interaction, { store }) => {
  const entries = await store.dictionary.list(interaction.guildId);
  const file = { attachment: Buffer.from(exportDictionary(entries)), name: 'dictionary.json' };
  await showResult(interaction, 'dictionary.exported', { count: entries.length }, [file]);
};

const importAll: Handler = async (interaction, context) => {
  const attachment = interaction.options.getAttachment('file', true);
  if (!attachment.name.toLowerCase().endsWith('.json')) throw new UserError('dictionary.import.notJsonFile');
  if (attachment.size > MAX_IMPORT_BYTES) throw new UserError('dictionary.import.tooLarge', { size: attachment.size, max: MAX_IMPORT_BYTES });
  let bytes: Uint8Array;
  try {
    bytes = await downloadClip(attachment.url, attachment.size, { ...context.settings.clipDownload, maxBytes: MAX_IMPORT_BYTES });
  } catch (error) {
    throw new UserError('dictionary.import.download', {}, { cause: error, level: 'warn' });
  }
  const parsed = importDictionary(new TextDecoder().decode(bytes));
  if (!parsed.ok) throw refused(interaction.locale, parsed.problem);
  const result = await context.store.dictionary.replace(interaction.guildId, parsed.value, interaction.user.id);
  if (result.status === 'refused') throw refused(interaction.locale, result.problem);
  await refreshReader(interaction, context);
  await showResult(interaction, 'dictionary.imported', { count: result.entries.length });
};

const HANDLERS: Record<string, Handler> = { add, remove, list, export: exportAll, import: importAll };

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const sub = interaction.options.getSubcommand(true);
  const handler = HANDLERS[sub];
  if (!handler) throw new Error(`no handler for /dictionary ${sub}`);
  await handler(interaction, context);
};
