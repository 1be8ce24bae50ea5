// A scene shown before anything is paid: cast, target, cost and budgets; nothing is held until the member confirms.
import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIButtonComponent,
  type Interaction,
} from 'discord.js';
import type { AnsweredInteraction, Services } from '../../core/interactions/command.ts';
import { UserError } from '../../core/interactions/failures.ts';
import { chooseDestination, type OutputChoice } from '../speaking/index-targets.ts';
import { seesPlanFigures } from '../../core/interactions/plan-figures.ts';
import { acknowledge } from '../../core/interactions/acknowledge.ts';
import { showContent } from '../../core/interactions/replies.ts';
import { namedVoice } from '../../core/interactions/safe-text.ts';
import type { SceneQuote } from '../../core/order/scene-types.ts';
import type { UsageReport } from '../../core/quota/accounting.ts';
import type { SpeechPipeline } from '../../core/order/pipeline.ts';
import { resolveCast, type CastQuery } from './cast.ts';
import { checkSceneFits, planScene } from './scene-plan.ts';
import type { PendingScene, ScenePlan, Speaker } from './scene-types.ts';
import { parseScript, ScriptError } from './script.ts';
import type { SceneScript } from './script-types.ts';
import type { PendingScenes } from './pending-scenes.ts';
import { budgetFigures } from './scene-budgets.ts';
import { t } from './strings.ts';

/** The buttons' custom_id: `scene:go:<token>` plays the waiting scene, `scene:no:<token>` drops it. */
export const CONFIRM_PREFIX = 'scene:go:';
export const CANCEL_PREFIX = 'scene:no:';

/** A script as a scene of this server, or the member's clear answer (UserError) of why not. */
export function readScript(source: string): SceneScript {
  try {
    return parseScript(source);
  } catch (error) {
    if (error instanceof ScriptError)
      throw new UserError(`scene.script.${error.code}`, { line: error.line, ...error.params });
    throw error;
  }
}

/** `source` read, cast and planned; casting reads the store and cache for every line: rationed as free work, per member. */
export async function castScene(
  source: string,
  speech: Pick<SpeechPipeline, 'takeFreeWork'>,
  query: CastQuery & { userId: string },
): Promise<{ script: SceneScript; plan: ScenePlan; speakers: Map<string, Speaker> }> {
  const script = readScript(source);
  speech.takeFreeWork(query.guildId, query.userId);
  const speakers = await resolveCast(script, query);
  return { script, plan: planScene(script, speakers), speakers };
}

/** Parses, casts and costs `source`, and shows the member the scene with its buttons. */
export async function previewScene(
  interaction: AnsweredInteraction<'cached'>,
  context: Services<'speech' | 'store' | 'voices' | 'config' | 'accounting' | 'isOperator' | 'seats' | 'reading'>,
  pending: PendingScenes,
  source: string,
  choice: { output: OutputChoice; format: 'wav' | 'mp3' },
): Promise<void> {
  const { plan, speakers } = await castScene(source, context.speech, {
    store: context.store,
    guildId: interaction.guildId,
    userId: interaction.user.id,
    guildLocale: interaction.guild.preferredLocale,
    presets: context.voices,
  });
  // Checked now and again at "Play it"; the slowmode turn is taken only when the scene is posted.
  const target = await chooseDestination(interaction, choice.output, context);
  checkSceneFits(plan, target.kind === 'voice', context.config.queue.guildSeconds);
  await acknowledge(interaction, true);
  const shown = await costedPreview(interaction, context, pending, {
    guildId: interaction.guildId,
    userId: interaction.user.id,
    plan,
    speakers,
    output: target.kind,
    ...(target.kind === 'voice' ? { channelId: target.channelId } : {}),
    format: choice.format,
  });
  await showContent(interaction, shown.content, [], shown.components);
}

/** The scene costed now and left waiting at that price (a press never pays more); `note` goes first. */
export async function costedPreview(
  interaction: Interaction<'cached'>,
  context: Services<'speech' | 'store' | 'voices' | 'config' | 'accounting' | 'isOperator' | 'seats' | 'reading'>,
  pending: PendingScenes,
  scene: Omit<PendingScene, 'quoted'>,
  note?: string,
): Promise<{ content: string; components: [APIActionRowComponent<APIButtonComponent>] }> {
  const { plan, speakers } = scene;
  const [quote, report] = await Promise.all([
    context.speech.quoteScene(plan.lines),
    context.accounting.report(interaction.guildId, interaction.user.id),
  ]);
  const locale = interaction.locale;
  const budgets = budgetLines(locale, report, seesPlanFigures(interaction, context.isOperator));
  const over = quote.characters > budgets.left;
  const token = pending.add({ ...scene, quoted: quote.characters });
  const where =
    scene.output === 'voice'
      ? t(locale, 'scene.preview.inVoice', { channel: `<#${scene.channelId ?? ''}>` })
      : t(locale, scene.output === 'file' ? 'scene.preview.asFile' : 'scene.preview.asVoiceMessage');
  const content = t(locale, 'scene.preview', {
    lines: plan.lines.length,
    speakers: plan.speakers,
    seconds: Math.max(1, Math.round(plan.seconds)),
    where,
    cast: castLine(locale, speakers),
    cost: costLine(locale, quote, plan),
    budgets: [...budgets.lines, ...(over ? [t(locale, 'scene.budget.over')] : [])].join('\n'),
  });
  return {
    content: note === undefined ? content : `${note}\n${content}`,
    components: [buttons(locale, token, over ? undefined : quote.characters)],
  };
}

function castLine(locale: string, speakers: ReadonlyMap<string, Speaker>): string {
  return [...speakers.values()]
    .map((speaker) => {
      const voice = namedVoice(speaker.settings.voice);
      const name = speaker.name;
      if (speaker.from.kind === 'member')
        return t(locale, 'scene.cast.member', { name, voice, member: `<@${speaker.from.userId}>` });
      return t(locale, speaker.from.kind === 'cast' ? 'scene.cast.cast' : 'scene.cast.distinct', { name, voice });
    })
    .join(' · ');
}

function costLine(locale: string, quote: SceneQuote, plan: ScenePlan): string {
  if (quote.characters === 0) return t(locale, 'scene.cost.free');
  return t(locale, 'scene.cost.paid', {
    characters: quote.characters,
    cached: quote.cachedLines,
    lines: plan.lines.length,
  });
}

/** What the member's budgets leave (and the plan's, for who may see it), and the least of them. */
function budgetLines(locale: string, report: UsageReport, planFigures: boolean): { lines: string[]; left: number } {
  const figures = budgetFigures(report);
  const lines: string[] = [];
  if (figures.member) lines.push(t(locale, 'scene.budget.member', figures.member));
  if (figures.guild) lines.push(t(locale, 'scene.budget.guild', figures.guild));
  if (planFigures) lines.push(t(locale, 'scene.budget.plan', { left: figures.bot }));
  if (lines.length === 0) lines.push(t(locale, 'scene.budget.none'));
  return { lines, left: figures.left };
}

/** "Play it" (absent when a budget would refuse it) and "Cancel". */
function buttons(locale: string, token: string, characters?: number): APIActionRowComponent<APIButtonComponent> {
  const button = (
    style: ButtonStyle.Primary | ButtonStyle.Secondary,
    prefix: string,
    label: string,
  ): APIButtonComponent => ({ type: ComponentType.Button, style, custom_id: `${prefix}${token}`, label });
  const cancel = button(ButtonStyle.Secondary, CANCEL_PREFIX, t(locale, 'scene.button.cancel'));
  if (characters === undefined) return { type: ComponentType.ActionRow, components: [cancel] };
  const label =
    characters === 0 ? t(locale, 'scene.button.confirmFree') : t(locale, 'scene.button.confirm', { characters });
  return { type: ComponentType.ActionRow, components: [button(ButtonStyle.Primary, CONFIRM_PREFIX, label), cancel] };
}
