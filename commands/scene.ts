import { PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import type { AnsweredInteraction, CommandModule, ServiceName, Services } from '../src/core/interactions/command.ts';
import { attachmentOption, slashCommand, stringOption, subcommand } from '../src/core/interactions/command-builder.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import { outputOption, readOutput } from '../src/core/interactions/options.ts';
import { memberVoiceChannel } from '../src/features/speaking/index-targets.ts';
import { responseStarted, startResponse } from '../src/core/interactions/acknowledge.ts';
import { echo, showContent, showResult } from '../src/core/interactions/replies.ts';
import { downloadClip } from '../src/features/voices/index.ts';
import { NAME_MAX_LENGTH } from '../src/core/store/names.ts';
import {
  PendingScenes,
  SCENE_CAPS,
  answerSceneButton,
  previewScene,
  saveScene,
  sceneName,
  sceneForm,
  sceneFormPurpose,
  type SceneFormPurpose,
} from '../src/features/scenes/index.ts';
import { t } from '../src/core/i18n/catalogue.ts';

export const uses = [
  'accounting',
  'config',
  'engines',
  'fileShares',
  'isOperator',
  'logger',
  'reading',
  'seats',
  'speech',
  'store',
  'voices',
] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

/** A script file's largest size: SCENE_CAPS.scriptChars characters of up to four UTF-8 bytes. */
const MAX_SCRIPT_BYTES = SCENE_CAPS.scriptChars * 4;
const FORMATS = ['wav', 'mp3'] as const;

const scriptOption = () => attachmentOption('script', {}).setFileTypes('.txt');
const nameOption = () => stringOption('name', { description: 'scene', required: true, maxLength: NAME_MAX_LENGTH });
const formatOption = () => stringOption('format', { choices: FORMATS });

export const data = slashCommand('scene')
  .addSubcommand(
    subcommand('scene.new')
      .addAttachmentOption(scriptOption())
      .addStringOption(outputOption())
      .addStringOption(formatOption()),
  )
  .addSubcommand(subcommand('scene.save').addStringOption(nameOption()).addAttachmentOption(scriptOption()))
  .addSubcommand(
    subcommand('scene.play')
      .addStringOption(nameOption())
      .addStringOption(outputOption())
      .addStringOption(formatOption()),
  )
  .addSubcommand(subcommand('scene.list'))
  .addSubcommand(subcommand('scene.delete').addStringOption(nameOption()));

/** Scenes waiting for their member's "Play it", in this process (a server's interactions reach one shard). */
const pending = new PendingScenes();

type Handler = (interaction: ChatInputCommandInteraction<'cached'>, context: Services<Uses>) => Promise<void>;

const readFormat = (interaction: ChatInputCommandInteraction<'cached'>) =>
  interaction.options.getString('format') === 'mp3' ? 'mp3' : 'wav';

/** Without a script file, the form: it must be the first response, before anything is awaited. */
async function withScript(
  interaction: ChatInputCommandInteraction<'cached'>,
  context: Services<Uses>,
  purpose: SceneFormPurpose,
  then: (script: string) => Promise<void>,
): Promise<void> {
  const attachment = interaction.options.getAttachment('script');
  if (attachment === null) {
    if (responseStarted(interaction))
      throw new Error('the scene form could not be shown: the interaction was already answered');
    await startResponse(interaction, () => interaction.showModal(sceneForm(interaction.locale, purpose)));
    return;
  }
  if (!attachment.name.toLowerCase().endsWith('.txt')) throw new UserError('scene.notTxt');
  if (attachment.size > MAX_SCRIPT_BYTES)
    throw new UserError('scene.fileTooLarge', { size: attachment.size, max: MAX_SCRIPT_BYTES });
  let bytes: Uint8Array;
  try {
    bytes = await downloadClip(attachment.url, attachment.size, {
      ...context.config.clipDownload,
      maxBytes: MAX_SCRIPT_BYTES,
    });
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError('scene.download', {}, { cause: error, level: 'warn' });
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new UserError('scene.notText', {}, { cause: error });
  }
  await then(text);
}

/** The scene name option as the store keeps it, or the member's answer of why not. */
const nameOf = (interaction: ChatInputCommandInteraction<'cached'>) =>
  sceneName(interaction.options.getString('name', true));

const isManager = (interaction: AnsweredInteraction<'cached'>) =>
  interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild);

async function save(
  interaction: AnsweredInteraction<'cached'>,
  context: Services<Uses>,
  name: string,
  script: string,
): Promise<void> {
  const saved = await saveScene(context.store, {
    guildId: interaction.guildId,
    userId: interaction.user.id,
    manager: isManager(interaction),
    name,
    script,
  });
  await showResult(interaction, saved.status === 'added' ? 'scene.saved' : 'scene.replaced', saved);
}

const HANDLERS: Record<string, Handler> = {
  new: async (interaction, context) => {
    const choice = { output: readOutput(interaction.options), format: readFormat(interaction) } as const;
    // For voice, the member's voice rights before the form: refused after it, the script written there is lost.
    // (Checked again when the script comes, and when the member confirms.)
    if (choice.output === 'voice' || (choice.output === undefined && interaction.member.voice.channel))
      memberVoiceChannel(interaction, context, context.reading);
    await withScript(interaction, context, { kind: 'new', ...choice }, (script) =>
      previewScene(interaction, context, pending, script, choice),
    );
  },
  save: async (interaction, context) => {
    const name = nameOf(interaction);
    await withScript(interaction, context, { kind: 'save', name }, (script) =>
      save(interaction, context, name, script),
    );
  },
  play: async (interaction, context) => {
    const name = nameOf(interaction);
    const saved = await context.store.scenes.get(interaction.guildId, name);
    if (saved === undefined) throw new UserError('scene.unknown', { name: echo(name, NAME_MAX_LENGTH) });
    await previewScene(interaction, context, pending, saved.script, {
      output: readOutput(interaction.options),
      format: readFormat(interaction),
    });
  },
  list: async (interaction, context) => {
    const scenes = await context.store.scenes.list(interaction.guildId);
    const locale = interaction.locale;
    if (scenes.length === 0) return showResult(interaction, 'scene.list.empty');
    const lines = scenes.map((scene) =>
      t(locale, 'scene.list.line', { name: echo(scene.name, NAME_MAX_LENGTH), member: `<@${scene.savedBy}>` }),
    );
    await showContent(interaction, [t(locale, 'scene.list.header', { count: scenes.length }), ...lines].join('\n'));
  },
  delete: async (interaction, context) => {
    const name = nameOf(interaction);
    const result = await context.store.scenes.delete(
      interaction.guildId,
      name,
      interaction.user.id,
      isManager(interaction),
    );
    const shown = echo(name, NAME_MAX_LENGTH);
    if (result.status === 'unknown') throw new UserError('scene.unknown', { name: shown });
    if (result.status === 'not-yours') throw new UserError('scene.notYoursToChange', { name: shown });
    await showResult(interaction, 'scene.deleted', { name: shown });
  },
};

export const execute: CommandModule<Uses>['execute'] = async (interaction, context) => {
  const handler = HANDLERS[interaction.options.getSubcommand(true)];
  if (!handler) throw new Error(`no handler for /scene ${interaction.options.getSubcommand(true)}`);
  await handler(interaction, context);
};

/** The form's submit: the script written there goes where the slash command would have taken a file's. */
export const modalSubmit: CommandModule<Uses>['modalSubmit'] = async (interaction, context) => {
  const purpose = sceneFormPurpose(interaction.customId);
  if (purpose === undefined) throw new Error(`not /scene's form: ${interaction.customId}`);
  const script = interaction.fields.getTextInputValue('script');
  if (purpose.kind === 'save') {
    return save(interaction, context, sceneName(purpose.name), script);
  }
  await previewScene(interaction, context, pending, script, { output: purpose.output, format: purpose.format });
};

/** "Play it" and "Cancel" under a scene's preview. */
export const button: CommandModule<Uses>['button'] = async (interaction, context) => {
  await answerSceneButton(interaction, context, pending);
};
