import type { ChatInputCommandInteraction } from 'discord.js';
import type { CommandModule, ServiceName, Services } from '../src/core/interactions/command.ts';
import {
  attachmentOption,
  integerOption,
  slashCommand,
  stringOption,
  subcommand,
} from '../src/core/interactions/command-builder.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import { t } from '../src/core/i18n/catalogue.ts';
import { fitLines } from '../src/features/speaking/index-words.ts';
import type { Requirements } from '../src/core/interactions/preconditions.ts';
import { downloadClip } from '../src/features/voices/index.ts';
import { echo, showContent, showResult } from '../src/core/interactions/replies.ts';
import { echoCode } from '../src/core/interactions/safe-text.ts';
import {
  GROWTH_ALLOWANCE,
  MAX_ENTRIES,
  MAX_GROWTH_FACTOR,
  MAX_IMPORT_BYTES,
  MAX_PATTERN_LENGTH,
  MAX_READING_LENGTH,
  MAX_WORD_LENGTH,
  describeDictionaryProblem,
  exportDictionary,
  readDictionaryFile,
  refreshDictionary,
  isPattern,
  readingWouldBeCutOffThread,
  type DictionaryEntry,
  type DictionaryProblem,
  type EntryName,
} from '../src/features/autoread/index-dictionary.ts';

export const uses = ['autoread', 'config', 'store'] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

/** Anyone may list and export the dictionary; changing it changes how the whole server is read. */
const manager = { manageGuild: { refusal: 'dictionary.permission' } } as const;
export const requires: Requirements = {
  subcommands: { add: manager, remove: manager, move: manager, import: manager },
};

// Limits declared so Discord's client stops a member there, as the dashboard does (the rule still checks). Word and
// pattern optional both (wordOrPattern wants one); the reading too, as required options must come first.
const wordOption = () => stringOption('word', { required: false, maxLength: MAX_WORD_LENGTH });
const patternOption = () => stringOption('pattern', { required: false, maxLength: MAX_PATTERN_LENGTH });

export const data = slashCommand('dictionary', requires)
  .addSubcommand(
    subcommand('dictionary.add')
      .addStringOption(wordOption())
      .addStringOption(stringOption('reading', { required: false, maxLength: MAX_READING_LENGTH }))
      .addStringOption(patternOption()),
  )
  .addSubcommand(subcommand('dictionary.remove').addStringOption(wordOption()).addStringOption(patternOption()))
  .addSubcommand(
    subcommand('dictionary.move')
      .addIntegerOption(integerOption('position', { required: true, min: 1, max: MAX_ENTRIES }))
      .addStringOption(wordOption())
      .addStringOption(patternOption()),
  )
  .addSubcommand(subcommand('dictionary.list'))
  .addSubcommand(subcommand('dictionary.export'))
  .addSubcommand(subcommand('dictionary.import').addAttachmentOption(attachmentOption('file', { required: true })));

type Handler = (interaction: ChatInputCommandInteraction<'cached'>, context: Services<Uses>) => Promise<void>;

/** A refused change, in the caller's language: "Nothing was changed: entry 3: the word is empty." */
function refused(locale: string, problem: DictionaryProblem): UserError {
  return new UserError('dictionary.refused', { problem: describeDictionaryProblem(locale, problem) });
}

/** The word or pattern the member named (exactly one of them), as the store takes it. */
function entryName(interaction: ChatInputCommandInteraction<'cached'>): EntryName {
  const word = interaction.options.getString('word');
  const pattern = interaction.options.getString('pattern');
  if ((word === null) === (pattern === null)) throw new UserError('dictionary.wordOrPattern');
  return pattern === null ? (word ?? '') : { pattern };
}

/** How an entry is named in a reply or a list line: "word", or pattern `(\d+)km`. */
function label(locale: string, entry: DictionaryEntry | EntryName): string {
  if (typeof entry === 'string') return `"${echo(entry, 60)}"`;
  if ('pattern' in entry) return t(locale, 'dictionary.list.pattern', { pattern: echoCode(entry.pattern, 80) });
  return `"${echo(entry.word, 60)}"`;
}

const add: Handler = async (interaction, context) => {
  const name = entryName(interaction);
  const reading = interaction.options.getString('reading') ?? '';
  const result = await context.store.dictionary.put(interaction.guildId, name, reading, interaction.user.id);
  if (result.status === 'refused') throw refused(interaction.locale, result.problem);
  await refreshDictionary(context.store, context.autoread, interaction.guildId);
  const { entry } = result;
  const { locale } = interaction;
  const said = isPattern(entry)
    ? t(locale, result.status === 'added' ? 'dictionary.added.pattern' : 'dictionary.replaced.pattern', {
        pattern: label(locale, entry),
        reading: echo(entry.reading, 110),
      })
    : t(locale, result.status === 'added' ? 'dictionary.added' : 'dictionary.replaced', {
        word: echo(entry.word, 60),
        reading: echo(entry.reading, 110),
      });
  // Added all the same: a reading cut short may still be what the manager wants for longer messages.
  const cut = (await readingWouldBeCutOffThread(entry, interaction.guildId))
    ? `\n${t(locale, 'dictionary.readingCut', { factor: MAX_GROWTH_FACTOR, allowance: GROWTH_ALLOWANCE })}`
    : '';
  await showContent(interaction, said + cut);
};

const remove: Handler = async (interaction, context) => {
  const name = entryName(interaction);
  const removed = await context.store.dictionary.remove(interaction.guildId, name);
  const pattern = typeof name !== 'string';
  if (!removed) {
    throw pattern
      ? new UserError('dictionary.unknown.pattern', { pattern: label(interaction.locale, name) })
      : new UserError('dictionary.unknown', { word: echo(name, 60) });
  }
  await refreshDictionary(context.store, context.autoread, interaction.guildId);
  if (isPattern(removed))
    await showResult(interaction, 'dictionary.removed.pattern', { pattern: label(interaction.locale, removed) });
  else await showResult(interaction, 'dictionary.removed', { word: echo(removed.word, 60) });
};

const move: Handler = async (interaction, context) => {
  const name = entryName(interaction);
  const position = interaction.options.getInteger('position', true);
  const result = await context.store.dictionary.move(interaction.guildId, name, position, interaction.user.id);
  if (result.status === 'unknown') {
    throw typeof name === 'string'
      ? new UserError('dictionary.unknown', { word: echo(name, 60) })
      : new UserError('dictionary.unknown.pattern', { pattern: label(interaction.locale, name) });
  }
  await refreshDictionary(context.store, context.autoread, interaction.guildId);
  const entry = result.entries[result.position - 1] ?? name;
  await showResult(interaction, 'dictionary.moved', {
    entry: label(interaction.locale, entry),
    position: result.position,
    count: result.entries.length,
  });
};

const list: Handler = async (interaction, { store }) => {
  const entries = await store.dictionary.list(interaction.guildId);
  if (entries.length === 0) {
    await showResult(interaction, 'dictionary.empty');
    return;
  }
  const locale = interaction.locale;
  // Numbered: the order is the order entries apply in, and /dictionary move takes these numbers.
  const lines = entries.map(
    (entry, index) =>
      `${index + 1}. ${isPattern(entry) ? label(locale, entry) : echo(entry.word, 60)} → ${echo(entry.reading, 110)}`,
  );
  await showContent(
    interaction,
    [t(locale, 'dictionary.list.header', { count: entries.length }), ...fitLines(lines, locale)].join('\n'),
  );
};

const exportAll: Handler = async (interaction, { store }) => {
  const entries = await store.dictionary.list(interaction.guildId);
  const file = { attachment: Buffer.from(exportDictionary(entries)), name: 'dictionary.json' };
  await showResult(interaction, 'dictionary.exported', { count: entries.length }, [file]);
};

const importAll: Handler = async (interaction, context) => {
  const attachment = interaction.options.getAttachment('file', true);
  if (!attachment.name.toLowerCase().endsWith('.json')) throw new UserError('dictionary.import.notJsonFile');
  if (attachment.size > MAX_IMPORT_BYTES)
    throw new UserError('dictionary.import.tooLarge', { size: attachment.size, max: MAX_IMPORT_BYTES });
  let bytes: Uint8Array;
  try {
    bytes = await downloadClip(attachment.url, attachment.size, {
      ...context.config.clipDownload,
      maxBytes: MAX_IMPORT_BYTES,
    });
  } catch (error) {
    throw new UserError('dictionary.import.download', {}, { cause: error, level: 'warn' });
  }
  // Read here, validated by the store (its patterns compiled in the dictionary's thread, never on this one).
  const parsed = readDictionaryFile(new TextDecoder().decode(bytes));
  if (!parsed.ok) throw refused(interaction.locale, parsed.problem);
  const result = await context.store.dictionary.replace(interaction.guildId, parsed.value, interaction.user.id);
  if (result.status === 'refused') throw refused(interaction.locale, result.problem);
  await refreshDictionary(context.store, context.autoread, interaction.guildId);
  await showResult(interaction, 'dictionary.imported', { count: result.entries.length });
};

const HANDLERS: Record<string, Handler> = { add, remove, move, list, export: exportAll, import: importAll };

export const execute: CommandModule<Uses>['execute'] = async (interaction, context) => {
  const sub = interaction.options.getSubcommand(true);
  const handler = HANDLERS[sub];
  if (!handler) throw new Error(`no handler for /dictionary ${sub}`);
  await handler(interaction, context);
};
