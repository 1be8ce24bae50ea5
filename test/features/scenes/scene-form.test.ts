// /scene's form as Discord receives it, and its purpose read back from the custom_id of its submit.
import { ComponentType, TextInputStyle } from 'discord.js';
import { describe, expect, it } from 'vitest';
import {
  FORM_SCRIPT_MAX,
  sceneForm,
  sceneFormPurpose,
  type SceneFormPurpose,
} from '../../../src/features/scenes/scene-form.ts';
import { NAME_MAX_LENGTH } from '../../../src/core/store/names.ts';

interface FormJson {
  custom_id: string;
  title: string;
  components: Array<{
    type: number;
    content?: string;
    label?: string;
    description?: string;
    component?: {
      type: number;
      custom_id: string;
      style: number;
      min_length?: number;
      max_length?: number;
      required?: boolean;
    };
  }>;
}

const json = (locale: string, purpose: SceneFormPurpose) => sceneForm(locale, purpose).toJSON() as unknown as FormJson;

describe('sceneForm', () => {
  it('asks for the script in one required paragraph Text Input inside a Label, under a guide', () => {
    const form = json('en-US', { kind: 'new', output: 'voice', format: 'wav' });
    expect(form.components.map((component) => component.type)).toEqual([
      ComponentType.TextDisplay,
      ComponentType.Label,
    ]);
    expect(form.components[0]?.content).toContain('Name:');
    const label = form.components[1];
    expect(label?.label).toBe('Script');
    expect(label?.component).toEqual({
      type: ComponentType.TextInput,
      custom_id: 'script',
      style: TextInputStyle.Paragraph,
      min_length: 1,
      max_length: 4000,
      required: true,
    });
    expect(FORM_SCRIPT_MAX).toBe(4000);
  });

  it('carries the output and the format of a new scene in its custom_id', () => {
    expect(json('en-US', { kind: 'new', output: 'file', format: 'mp3' }).custom_id).toBe('scene:form:new:file:mp3');
    expect(json('en-US', { kind: 'new', output: undefined, format: 'wav' }).custom_id).toBe('scene:form:new::wav');
  });

  it("carries a saved scene's name in its custom_id", () => {
    expect(json('en-US', { kind: 'save', name: 'The Heist' }).custom_id).toBe('scene:form:save:The Heist');
  });

  it("stays within Discord's limits in every language: title 45, label 45, description 100, custom_id 100", () => {
    const longest = { kind: 'save', name: 'n'.repeat(NAME_MAX_LENGTH) } as const;
    for (const locale of ['en-US', 'ko', 'ja']) {
      const form = json(locale, longest);
      expect([...form.title].length).toBeLessThanOrEqual(45);
      expect([...(form.components[1]?.label ?? '')].length).toBeLessThanOrEqual(45);
      expect([...(form.components[1]?.description ?? '')].length).toBeLessThanOrEqual(100);
      expect(form.custom_id.length).toBeLessThanOrEqual(100);
    }
  });

  it('is worded in the locale asked for', () => {
    const purpose = { kind: 'new', output: 'voice', format: 'wav' } as const;
    expect(json('ko', purpose).title).not.toBe(json('en-US', purpose).title);
  });
});

describe('sceneFormPurpose', () => {
  const purposes: SceneFormPurpose[] = [
    { kind: 'new', output: 'voice', format: 'wav' },
    { kind: 'new', output: 'file', format: 'mp3' },
    { kind: 'new', output: 'voice-message', format: 'wav' },
    { kind: 'new', output: undefined, format: 'mp3' },
    { kind: 'save', name: 'Scene one' },
    // A colon in a name is kept whole.
    { kind: 'save', name: 'Act 2: the return' },
  ];

  it.each(purposes)('reads back what the form was made for: %o', (purpose) => {
    expect(sceneFormPurpose(json('en-US', purpose).custom_id)).toEqual(purpose);
  });

  it("is undefined for another command's modal or an unknown kind", () => {
    expect(sceneFormPurpose('clone:form')).toBeUndefined();
    expect(sceneFormPurpose('scene:confirm:abc')).toBeUndefined();
    expect(sceneFormPurpose('scene:form:other:voice:wav')).toBeUndefined();
    expect(sceneFormPurpose('')).toBeUndefined();
  });

  it('reads an output it does not know as none, and a format it does not know as WAV', () => {
    expect(sceneFormPurpose('scene:form:new:stage:flac')).toEqual({ kind: 'new', output: undefined, format: 'wav' });
  });
});
