// Hearing a voice: free ones play at once, a paid one is quoted first; kept for its member a few minutes, bounded.
import { randomBytes } from 'node:crypto';
import { KeptFiles, type KeptFile } from './kept-files.ts';
import { describeFailure, wordOutcome } from '../speaking/index-words.ts';
import { handOver } from '../speaking/index.ts';
import type { LocalisedMessage } from '../../core/i18n/catalogue.ts';
import { MEMBER_REQUEST, type SpeechPipeline } from '../../core/order/pipeline.ts';
import { chooseSettings } from '../../core/sourcing/voice-choice.ts';
import { ttsRequest } from '../../core/sourcing/part-request.ts';
import type { Store } from '../../core/store/types.ts';

/** Samples kept at once (the oldest goes first), and for how long. */
const MAX_SAMPLES = 32;
const SAMPLE_MS = 5 * 60_000;

export type SampleResult =
  | { kind: 'quote'; characters: number }
  /** `characters`: what it spent (the price, or none the free voice spoke); `notes`: its outcome's words (who spoke). */
  | { kind: 'audio'; id: string; characters: number; notes: LocalisedMessage[] }
  | { kind: 'refused'; message: LocalisedMessage };

export class Samples {
  readonly #store: Store;
  readonly #speech: SpeechPipeline;
  readonly #now: () => number;
  readonly #files: KeptFiles;

  constructor(store: Store, speech: SpeechPipeline, now: () => number = Date.now) {
    this.#store = store;
    this.#speech = speech;
    this.#now = now;
    this.#files = new KeptFiles({ files: MAX_SAMPLES, bytes: Infinity, ms: SAMPLE_MS }, now);
  }

  /** `text` in the member's voice: quoted when it would cost and `paidCharacters` is not exactly that price. */
  async sample(input: {
    guildId: string;
    userId: string;
    guildLanguage: string;
    text: string;
    paidCharacters: number | undefined;
    /** A voice to hear instead of the member's settings, so the cache entry is shared and a sample is paid once. */
    heard?: { voice: string } | { preset: string };
  }): Promise<SampleResult> {
    try {
      const { heard } = input;
      const settings = await chooseSettings(this.#store, {
        guildId: input.guildId,
        userId: heard === undefined ? input.userId : null,
        options: heard !== undefined && 'voice' in heard ? { voice: heard.voice } : {},
        presetName: heard !== undefined && 'preset' in heard ? heard.preset : undefined,
        guildLocale: input.guildLanguage,
      });
      const request = ttsRequest(input.text, settings);
      // A text-to-speech request, never audio ready-made: the quote's type says so.
      if (request.kind === 'ready') throw new Error('a sample is never ready-made audio');
      const { characters } = await this.#speech.quoteScene([{ request, pauseBefore: 0 }]);
      if (characters > 0 && input.paidCharacters !== characters) return { kind: 'quote', characters };
      const handed = handOver(this.#speech, {
        request,
        requester: {
          guildId: input.guildId,
          userId: input.userId,
          command: 'dashboard-sample',
          policy: MEMBER_REQUEST,
          id: randomBytes(8).toString('hex'),
          askedAt: this.#now(),
        },
        target: { kind: 'file' },
        // Heard in the member's own browser: nothing happens in Discord, so no right of theirs there is asked.
        effects: { does: [], at: null },
      });
      await handed.accepted;
      const outcome = await handed.outcome;
      const answer = wordOutcome(outcome, { flavour: 'sample' });
      if (answer.answer === 'refused') throw answer.error;
      if (answer.answer !== 'audio') throw new Error(`a sample cannot be made of a ${answer.answer} answer`);
      const id = this.#files.keep(input, answer.data, `sample.${answer.format}`);
      const spent = outcome.standIn === undefined ? characters : (outcome.standIn.paidBefore ?? 0);
      return { kind: 'audio', id, characters: spent, notes: answer.notes };
    } catch (error) {
      const { code, message } = describeFailure(error);
      if (code === 'internal') throw error;
      return { kind: 'refused', message };
    }
  }

  /** A kept sample, only for the member it was made for in that server. */
  get(id: string, userId: string, guildId: string): KeptFile | undefined {
    return this.#files.get(id, userId, guildId);
  }
}
