// A scene outside Discord (the dashboard's studio), made as /scene makes one, never paying more than confirmed.
import { type PresetVoice } from '../../core/voice-catalogue/voices.ts';
import { randomBytes } from 'node:crypto';
import type { AudioFormat } from '../../core/audio/codecs/format.ts';
import type { LocalisedMessage } from '../../core/i18n/catalogue.ts';
import { UserError } from '../../core/interactions/failures.ts';
import type { UsageReport } from '../../core/quota/accounting.ts';
import { handOver } from '../speaking/index.ts';
import { wordOutcome } from '../speaking/index-words.ts';
import {
  MEMBER_REQUEST,
  type SpeechOutcome,
  type SpeechPipeline,
  type SpeechTarget,
} from '../../core/order/pipeline.ts';
import type { Revocation } from '../../core/order/rights.ts';
import type { Store } from '../../core/store/types.ts';
import { budgetFigures, type BudgetFigures } from './scene-budgets.ts';
import { checkSceneFits } from './scene-plan.ts';
import { castScene } from './scene-preview.ts';
import { sceneSrt } from './subtitles.ts';
import type { ScenePlan, Speaker } from './scene-types.ts';
import { parseScript, ScriptError } from './script.ts';
import './strings.ts';

/** What a studio scene needs of the running bot. */
export interface StudioServices {
  store: Store;
  speech: SpeechPipeline;
  /** The preset voices on offer (as CommandContext.voices). */
  presets: readonly PresetVoice[];
  /** The member's budgets and the month (Accounting.report, as /usage and /scene read them). */
  report(guildId: string, userId: string): Promise<UsageReport>;
  /** The server's queue of seconds in voice (QUEUE_GUILD_SECONDS; 0: none): a longer scene is refused for voice. */
  voiceSeconds: number;
}

/** The member and where they are, as SayBot sees them. */
export interface StudioMember {
  guildId: string;
  userId: string;
  /** The server's language (Discord's preferred locale). */
  guildLocale: string;
}

/** The member's voice channel, checked as /scene checks it (the speaking feature's memberVoiceChannel). */
export interface StudioVoice {
  target: Extract<SpeechTarget, { kind: 'voice' }>;
  /** Their voice rights there, asked again before each part (SpeechOrder's stillAllowed). */
  stillAllowed: () => Revocation | undefined;
}

/** What the parser read a line as (lines it skipped, or joined to the turn before, are not listed). */
export type ReadLine = { line: number; kind: 'cast' | 'pause' } | { line: number; kind: 'turn'; speaker: string };

/** A script checked: each line as read and its speakers, or the first error on its line (0: the whole script). */
export type ScriptCheck =
  | { ok: true; read: ReadLine[]; lines: number; speakers: number }
  | { ok: false; line: number; message: LocalisedMessage };

/** The parser's verdict on `source`, nothing read or counted. */
export function checkScript(source: string): ScriptCheck {
  try {
    const script = parseScript(source);
    const read: ReadLine[] = [
      ...[...new Set(script.cast.map((entry) => entry.line))].map((line) => ({ line, kind: 'cast' as const })),
      ...script.steps.map((step): ReadLine =>
        step.kind === 'line'
          ? { line: step.line, kind: 'turn', speaker: step.speaker }
          : { line: step.line, kind: 'pause' },
      ),
    ].sort((a, b) => a.line - b.line);
    const lines = script.steps.filter((step) => step.kind === 'line').length;
    return { ok: true, read, lines, speakers: script.speakers.length };
  } catch (error) {
    if (!(error instanceof ScriptError)) throw error;
    return {
      ok: false,
      line: error.line,
      message: { key: `scene.script.${error.code}`, params: { line: error.line, ...error.params } },
    };
  }
}

/** A scene cast, planned and costed now. */
export interface StudioQuote {
  plan: ScenePlan;
  speakers: ReadonlyMap<string, Speaker>;
  /** The 1-based script line of each turn, in order. */
  lineNumbers: number[];
  characters: number;
  cachedLines: number;
  budgets: BudgetFigures;
}

/** `source` read, cast and costed (nothing held); throws the member's answer when it may not be made. */
export async function quoteStudioScene(
  services: StudioServices,
  member: StudioMember,
  source: string,
  output: 'voice' | 'file',
): Promise<StudioQuote> {
  const { script, plan, speakers } = await castScene(source, services.speech, {
    ...member,
    store: services.store,
    presets: services.presets,
  });
  checkSceneFits(plan, output === 'voice', services.voiceSeconds);
  const [quote, report] = await Promise.all([
    services.speech.quoteScene(plan.lines),
    services.report(member.guildId, member.userId),
  ]);
  const lineNumbers = script.steps.flatMap((step) => (step.kind === 'line' ? [step.line] : []));
  return {
    plan,
    speakers,
    lineNumbers,
    characters: quote.characters,
    cachedLines: quote.cachedLines,
    budgets: budgetFigures(report),
  };
}

/** What making a studio scene gave, with the member's words for it (the speaking feature's outcome-words.ts). */
export type StudioOutcome =
  | {
      kind: 'file';
      data: Buffer;
      format: AudioFormat;
      srt: string;
      seconds: number;
      cutAt?: number;
      words: LocalisedMessage;
      notes: LocalisedMessage[];
    }
  /** Heard in voice: played, or stopped, skipped or cut off part-way. */
  | { kind: 'voice'; seconds: number; words: LocalisedMessage; notes: LocalisedMessage[] }
  /** It would now cost more than its member confirmed: nothing was paid; the new quote is theirs to confirm. */
  | { kind: 'quote-changed'; quote: StudioQuote };

/** Makes `source` as a file or plays it in voice, paying at most `quoted`; `only`: one turn alone as a file. */
export async function makeStudioScene(
  services: StudioServices,
  member: StudioMember,
  order: {
    source: string;
    quoted: number;
    format: 'wav' | 'mp3';
    voice?: StudioVoice | undefined;
    only?: number | undefined;
    /** What asked, for the spends' `command` label. */
    command: string;
  },
): Promise<StudioOutcome> {
  const output = order.voice === undefined ? 'file' : 'voice';
  const quote = await quoteStudioScene(services, member, order.source, output);
  let { plan } = quote;
  if (order.only !== undefined) {
    const line = plan.lines[order.only];
    const turn = plan.turns[order.only];
    if (line === undefined || turn === undefined) throw new UserError('scene.script.empty', { line: 0 });
    plan = { ...plan, lines: [{ ...line, pauseBefore: 0 }], turns: [turn], speakers: 1 };
  }
  const handed = handOver(services.speech, {
    scene: plan.lines,
    sceneFormat: order.format,
    quoted: order.quoted,
    requester: {
      guildId: member.guildId,
      userId: member.userId,
      command: order.command,
      id: randomBytes(8).toString('hex'),
      askedAt: Date.now(),
      policy: MEMBER_REQUEST,
    },
    target: order.voice?.target ?? { kind: 'file' },
    // The dashboard asked the place's rights as it chose the channel and gives their recheck: `at` is not read here.
    effects: { does: order.voice === undefined ? [] : ['speak-in-voice', 'member-words'], at: null },
    ...(order.voice === undefined ? {} : { stillAllowed: order.voice.stillAllowed }),
  });
  const outcome = await handed.accepted.then(
    () => handed.outcome,
    (error: unknown): SpeechOutcome => ({ kind: 'failed', error, secondsHeard: 0 }),
  );
  const answer = wordOutcome(outcome, { flavour: 'studio' });
  switch (answer.answer) {
    case 'price-changed':
      return { kind: 'quote-changed', quote: await quoteStudioScene(services, member, order.source, output) };
    case 'refused':
      throw answer.error;
    case 'audio':
      if (answer.words === undefined) break;
      return {
        kind: 'file',
        data: answer.data,
        format: answer.format,
        srt: sceneSrt(plan.turns, answer.timeline),
        seconds: answer.seconds,
        ...(answer.cutAt === undefined ? {} : { cutAt: answer.cutAt }),
        words: answer.words,
        notes: answer.notes,
      };
    case 'reply':
      return { kind: 'voice', seconds: answer.seconds, words: answer.words, notes: answer.notes };
  }
  throw new Error(`a studio scene cannot be made of a ${answer.answer} answer`);
}
