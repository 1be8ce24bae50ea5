// /clone as a form (a modal); the submit goes the slash command's way (commands/clone.ts).
import {
  ButtonStyle,
  CheckboxBuilder,
  ComponentType,
  FileUploadBuilder,
  LabelBuilder,
  ModalBuilder,
  TextDisplayBuilder,
  TextInputBuilder,
  TextInputStyle,
  type APIActionRowComponent,
  type APIButtonComponent,
  type ModalSubmitInteraction,
} from 'discord.js';
import { t } from './strings.ts';
import type { OutputChoice } from '../speaking/index-targets.ts';
import { CLIP_MAX_SECONDS, CLIP_MIN_SECONDS } from './reference-clip.ts';

/** What a clip may be called: Discord's pickers offer only these (`file_types`), and SayBot checks the name again. */
export const CLIP_FILE_TYPES = ['.wav', '.mp3', '.m4a'] as const;
/** The "Clone a voice" button (commands/clone.ts `button`). */
export const OPEN_FORM_ID = 'clone:open';
/** The form's custom_id, `clone:form` or `clone:form:<output>`: what the output option asked survives the form. */
const FORM_ID = 'clone:form';
const OUTPUTS = ['voice', 'file', 'voice-message'] as const;
/** As the slash options: the name's length is the store's; the first line's, the text option's. */
export const FIRST_LINE_MAX_LENGTH = 1000;

export interface CloneFormFields {
  name: string;
  text: string;
  consent: boolean;
  /** The uploaded clip (Discord: an ephemeral attachment); absent only when a client skipped the form's checks. */
  clip: { url: string; size: number; filename: string } | undefined;
  output: OutputChoice;
}

/** Whether a clip's file name is one of CLIP_FILE_TYPES (case-insensitive), as Discord's file type filter judges. */
export function isClipFileName(filename: string): boolean {
  const lower = filename.toLowerCase();
  return CLIP_FILE_TYPES.some((extension) => lower.endsWith(extension));
}

/** The form in the member's language, with what they already gave (/clone name: text:) filled in. */
export function cloneForm(
  locale: string,
  given: { output?: OutputChoice; name?: string | null; text?: string | null; nameMaxLength: number },
): ModalBuilder {
  const input = (id: string, style: TextInputStyle, maxLength: number, value: string | null | undefined) => {
    const built = new TextInputBuilder()
      .setCustomId(id)
      .setStyle(style)
      .setMinLength(1)
      .setMaxLength(maxLength)
      .setRequired(true);
    const kept = value?.slice(0, maxLength);
    return kept ? built.setValue(kept) : built;
  };
  return new ModalBuilder()
    .setCustomId(given.output === undefined ? FORM_ID : `${FORM_ID}:${given.output}`)
    .setTitle(t(locale, 'clone.form.title'))
    .addTextDisplayComponents(
      new TextDisplayBuilder().setContent(
        t(locale, 'clone.form.guide', { min: CLIP_MIN_SECONDS, max: CLIP_MAX_SECONDS }),
      ),
    )
    .addLabelComponents(
      new LabelBuilder()
        .setLabel(t(locale, 'clone.form.name'))
        .setDescription(t(locale, 'option.name.description.clone'))
        .setTextInputComponent(input('name', TextInputStyle.Short, given.nameMaxLength, given.name)),
      new LabelBuilder()
        .setLabel(t(locale, 'clone.form.text'))
        .setDescription(t(locale, 'option.text.description.clone'))
        .setTextInputComponent(input('text', TextInputStyle.Paragraph, FIRST_LINE_MAX_LENGTH, given.text)),
      new LabelBuilder()
        .setLabel(t(locale, 'clone.form.clip'))
        .setDescription(t(locale, 'option.audio.description'))
        .setFileUploadComponent(
          new FileUploadBuilder()
            .setCustomId('clip')
            .setMinValues(1)
            .setMaxValues(1)
            .setRequired(true)
            .setFileTypes(...CLIP_FILE_TYPES),
        ),
      // A checkbox cannot be required (Discord): an unticked one is refused when submitted, before anything is paid.
      new LabelBuilder()
        .setLabel(t(locale, 'clone.form.consent'))
        .setDescription(t(locale, 'option.consent.description'))
        .setCheckboxComponent(new CheckboxBuilder().setCustomId('consent')),
    );
}

/** Whether a modal is /clone's form. */
export function isCloneForm(customId: string): boolean {
  return customId === FORM_ID || customId.startsWith(`${FORM_ID}:`);
}

/** What the member entered in the form. */
export function readCloneForm(interaction: ModalSubmitInteraction): CloneFormFields {
  const { fields } = interaction;
  const file = fields.getUploadedFiles('clip')?.first();
  const output = OUTPUTS.find((o) => interaction.customId === `${FORM_ID}:${o}`);
  return {
    name: fields.getTextInputValue('name'),
    text: fields.getTextInputValue('text'),
    consent: fields.getCheckbox('consent'),
    clip: file === undefined ? undefined : { url: file.url, size: file.size, filename: file.name },
    output,
  };
}

/** A row with the "Clone a voice" button, under a private reply (only its reader can press it). */
export function openFormRow(locale: string): APIActionRowComponent<APIButtonComponent> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Primary,
        custom_id: OPEN_FORM_ID,
        label: t(locale, 'clone.form.title'),
      },
    ],
  };
}
