import { beforeAll, describe, expect, it } from 'vitest';
import {
  CheckboxBuilder,
  DiscordAPIError,
  Events,
  Routes,
  FileUploadBuilder,
  LabelBuilder,
  ModalBuilder,
  SlashCommandBuilder,
  TextInputBuilder,
  TextInputStyle,
  type APIModalInteractionResponseCallbackData,
  type Interaction,
  type ModalSubmitInteraction,
} from 'discord.js';
import { FormRefusal, type InteractionHandle } from '@saybot/local-discord';
import { APP_ID, guildSpec, useLoggedInClient } from './helpers.ts';

const guild = guildSpec(1);
const bob = guild.members[1]!;

/** A form like /clone's: a name, a consent box and one audio file, in Labels (Discord's current modal layout). */
function form(): ModalBuilder {
  return new ModalBuilder()
    .setCustomId('test:form')
    .setTitle('Clone a voice')
    .addLabelComponents(
      new LabelBuilder()
        .setLabel('Name')
        .setTextInputComponent(
          new TextInputBuilder().setCustomId('name').setStyle(TextInputStyle.Short).setMinLength(2).setMaxLength(10),
        ),
      new LabelBuilder()
        .setLabel('Clip')
        .setDescription('WAV, MP3 or M4A')
        .setFileUploadComponent(
          new FileUploadBuilder()
            .setCustomId('clip')
            .setMinValues(1)
            .setMaxValues(1)
            .setFileTypes('.wav', '.mp3', '.m4a'),
        ),
      new LabelBuilder().setLabel('Consent').setCheckboxComponent(new CheckboxBuilder().setCustomId('consent')),
    );
}

describe('FakeDiscord modals: Labels, Text Inputs, File Uploads, Checkboxes, file types', () => {
  /** The next interaction's handler: shows a modal, or reads a submit. */
  let onInteraction: (interaction: Interaction) => Promise<void> = async () => undefined;

  const rig = useLoggedInClient({ guilds: [guild] });
  beforeAll(async () => {
    rig.client.on(Events.InteractionCreate, (interaction) => void onInteraction(interaction));
    await rig.client.application?.commands.set(
      [
        new SlashCommandBuilder().setName('open').setDescription('opens the form'),
        new SlashCommandBuilder()
          .setName('upload')
          .setDescription('takes audio')
          .addAttachmentOption((o) => o.setName('clip').setDescription('audio').setFileTypes('audio')),
      ],
      guild.id,
    );
  });

  /** Runs /open and shows `modal`; resolves with the handle and what showModal did (undefined, or Discord's error). */
  async function open(
    modal: ModalBuilder | APIModalInteractionResponseCallbackData,
  ): Promise<{ handle: InteractionHandle; error: unknown }> {
    let shown: Promise<unknown> = Promise.resolve();
    const seen = new Promise<void>((resolve) => {
      onInteraction = async (interaction) => {
        if (!interaction.isChatInputCommand()) return;
        shown = interaction.showModal(modal).then(
          () => undefined,
          (error: unknown) => error,
        );
        resolve();
      };
    });
    const handle = await rig.fake.command({ guildId: guild.id, userId: bob.id, name: 'open' });
    await seen;
    return { handle, error: await shown };
  }

  it('shows a modal (callback type 9) and hands the submit to the bot: text, ticked box, the upload in resolved.attachments', async () => {
    const { handle, error } = await open(form());
    expect(error).toBeUndefined();
    expect(handle.modal?.title).toBe('Clone a voice');
    const submitted = new Promise<ModalSubmitInteraction>((resolve) => {
      onInteraction = async (interaction) => {
        if (interaction.isModalSubmit()) resolve(interaction);
      };
    });
    const wav = Buffer.from('RIFF....WAVE');
    await rig.fake.submitModal({
      on: handle,
      values: { name: 'Tone', consent: true, clip: [{ data: wav, filename: 'Me.WAV', contentType: 'audio/wav' }] },
    });
    const submit = await submitted;
    expect(submit.customId).toBe('test:form');
    expect(submit.fields.getTextInputValue('name')).toBe('Tone');
    expect(submit.fields.getCheckbox('consent')).toBe(true);
    const file = submit.fields.getUploadedFiles('clip', true).first();
    expect(file?.name).toBe('Me.WAV');
    expect(Buffer.from(await (await fetch(file?.url ?? '')).arrayBuffer())).toEqual(wav);
    // A modal is submitted once; a second submit is a test's mistake.
    await expect(rig.fake.submitModal({ on: handle, values: {} })).rejects.toThrow(/no modal/);
  });

  it('an unticked box arrives as false; the pre-filled value stands for a field left out', async () => {
    const prefilled = form();
    prefilled.spliceLabelComponents(
      0,
      1,
      new LabelBuilder()
        .setLabel('Name')
        .setTextInputComponent(
          new TextInputBuilder().setCustomId('name').setStyle(TextInputStyle.Short).setValue('Kept'),
        ),
    );
    const { handle } = await open(prefilled);
    const submitted = new Promise<ModalSubmitInteraction>((resolve) => {
      onInteraction = async (interaction) => {
        if (interaction.isModalSubmit()) resolve(interaction);
      };
    });
    await rig.fake.submitModal({ on: handle, values: { clip: [{ data: Buffer.from('ID3'), filename: 'a.mp3' }] } });
    const submit = await submitted;
    expect(submit.fields.getTextInputValue('name')).toBe('Kept');
    expect(submit.fields.getCheckbox('consent')).toBe(false);
  });

  it('the client refuses a file type the upload does not accept, an empty required field, a text out of its lengths, two files for one', async () => {
    const { handle } = await open(form());
    const clip = [{ data: Buffer.from('x'), filename: 'notes.txt' }];
    const before = rig.fake.interactions().length;
    await expect(rig.fake.submitModal({ on: handle, values: { name: 'Tone', consent: true, clip } })).rejects.toThrow(
      FormRefusal,
    );
    await expect(
      rig.fake.submitModal({
        on: handle,
        values: { consent: true, clip: [{ data: Buffer.from('x'), filename: 'a.wav' }] },
      }),
    ).rejects.toThrow(/required/);
    await expect(
      rig.fake.submitModal({
        on: handle,
        values: { name: 'T', clip: [{ data: Buffer.from('x'), filename: 'a.wav' }] },
      }),
    ).rejects.toThrow(/2 to 10 characters/);
    const two = [
      { data: Buffer.from('x'), filename: 'a.wav' },
      { data: Buffer.from('y'), filename: 'b.wav' },
    ];
    await expect(rig.fake.submitModal({ on: handle, values: { name: 'Tone', clip: two } })).rejects.toThrow(
      /1 to 1 files/,
    );
    expect(rig.fake.interactions().length).toBe(before);
    // A client that checks nothing gets it through: the bot must check the file itself.
    const submitted = new Promise<ModalSubmitInteraction>((resolve) => {
      onInteraction = async (interaction) => {
        if (interaction.isModalSubmit()) resolve(interaction);
      };
    });
    await rig.fake.submitModal({ on: handle, values: { name: 'Tone', clip }, unchecked: true });
    expect((await submitted).fields.getUploadedFiles('clip', true).first()?.name).toBe('notes.txt');
  });

  it.each([
    // Sent as raw JSON: discord.js's builders would refuse some of these themselves.
    ['a title over 45 characters', () => ({ ...form().toJSON(), title: 'x'.repeat(46) }), 'data.title'],
    [
      'six top-level components',
      () =>
        form().addLabelComponents(
          ...['a', 'b', 'c'].map((id) =>
            new LabelBuilder().setLabel(id).setCheckboxComponent(new CheckboxBuilder().setCustomId(id)),
          ),
        ),
      'data.components',
    ],
    [
      'a label over 45 characters',
      () => ({
        ...form().toJSON(),
        components: [{ type: 18, label: 'y'.repeat(46), component: { type: 23, custom_id: 'c' } }],
      }),
      'data.components.0.label',
    ],
    [
      'a required upload of at least 0 files',
      () =>
        form().spliceLabelComponents(
          1,
          1,
          new LabelBuilder()
            .setLabel('Clip')
            .setFileUploadComponent(new FileUploadBuilder().setCustomId('clip').setMinValues(0)),
        ),
      'data.components.1.component.min_values',
    ],
    [
      'a custom_id twice',
      () =>
        form().spliceLabelComponents(
          2,
          1,
          new LabelBuilder().setLabel('Again').setCheckboxComponent(new CheckboxBuilder().setCustomId('name')),
        ),
      'data.components.2.component.custom_id',
    ],
  ])('Discord refuses a modal with %s (400 50035, the field named)', async (_what, build, field) => {
    const { handle, error } = await open(build());
    expect(error).toBeInstanceOf(DiscordAPIError);
    expect((error as DiscordAPIError).code).toBe(50035);
    expect(JSON.stringify((error as DiscordAPIError).rawError)).toContain(field);
    expect(handle.modal).toBeUndefined();
  });

  it('file_types on an attachment option: the client offers only those files; Discord refuses a command with a bad one', async () => {
    await expect(
      rig.fake.command({
        guildId: guild.id,
        userId: bob.id,
        name: 'upload',
        attachments: [{ option: 'clip', data: Buffer.from('x'), filename: 'notes.txt' }],
      }),
    ).rejects.toThrow(FormRefusal);
    const seen = new Promise<string | undefined>((resolve) => {
      onInteraction = async (interaction) => {
        if (interaction.isChatInputCommand()) resolve(interaction.options.getAttachment('clip')?.name);
      };
    });
    await rig.fake.command({
      guildId: guild.id,
      userId: bob.id,
      name: 'upload',
      attachments: [{ option: 'clip', data: Buffer.from('x'), filename: 'voice.flac' }],
    });
    expect(await seen).toBe('voice.flac');
    // 'pdf' is neither a group nor dot-prefixed.
    const body = {
      name: 'bad',
      description: 'bad',
      options: [{ type: 11, name: 'f', description: 'f', file_types: ['pdf'] }],
    };
    const refused = await rig.client.rest
      .post(Routes.applicationGuildCommands(APP_ID, guild.id), { body })
      .catch((error: unknown) => error);
    expect((refused as DiscordAPIError).code).toBe(50035);
  });
});
