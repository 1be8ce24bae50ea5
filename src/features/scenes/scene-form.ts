// /scene's form (a modal); its custom_id carries what the command asked: `scene:form:new:<output>:<format>` or
// `scene:form:save:<name>`.
import { LabelBuilder, ModalBuilder, TextDisplayBuilder, TextInputBuilder, TextInputStyle } from 'discord.js';
import type { OutputChoice } from '../speaking/index-targets.ts';
import { SCENE_CAPS } from './script.ts';
import { t } from './strings.ts';

/** Discord's longest paragraph Text Input. */
export const FORM_SCRIPT_MAX = 4000;
const PREFIX = 'scene:form:';
const OUTPUTS = ['voice', 'file', 'voice-message'] as const;

/** What the form is for: a scene to hear now, or one to save under a name. */
export type SceneFormPurpose =
  { kind: 'new'; output: OutputChoice; format: 'wav' | 'mp3' } | { kind: 'save'; name: string };

export function sceneForm(locale: string, purpose: SceneFormPurpose): ModalBuilder {
  const id =
    purpose.kind === 'new' ? `${PREFIX}new:${purpose.output ?? ''}:${purpose.format}` : `${PREFIX}save:${purpose.name}`;
  return new ModalBuilder()
    .setCustomId(id)
    .setTitle(t(locale, 'scene.form.title'))
    .addTextDisplayComponents(new TextDisplayBuilder().setContent(t(locale, 'scene.form.guide')))
    .addLabelComponents(
      new LabelBuilder()
        .setLabel(t(locale, 'scene.form.script'))
        .setDescription(
          t(locale, 'scene.form.scriptHelp', {
            lines: SCENE_CAPS.lines,
            speakers: SCENE_CAPS.speakers,
            characters: SCENE_CAPS.characters,
          }),
        )
        .setTextInputComponent(
          new TextInputBuilder()
            .setCustomId('script')
            .setStyle(TextInputStyle.Paragraph)
            .setMinLength(1)
            .setMaxLength(FORM_SCRIPT_MAX)
            .setRequired(true),
        ),
    );
}

/** The form's purpose from its custom_id; undefined for another modal. */
export function sceneFormPurpose(customId: string): SceneFormPurpose | undefined {
  if (!customId.startsWith(PREFIX)) return undefined;
  const [kind, ...rest] = customId.slice(PREFIX.length).split(':');
  if (kind === 'save') return { kind, name: rest.join(':') };
  if (kind !== 'new') return undefined;
  const output = OUTPUTS.find((choice) => choice === rest[0]);
  return { kind, output, format: rest[1] === 'mp3' ? 'mp3' : 'wav' };
}
