// How a front-end names the free voice's fallback (src/core/order/pipeline.ts: Acceptance.fallback) to members: the
// free voice that speaks, and in a few words why the paid one may not (no member's figures: the channel may read it).
import type { MessageKey } from '../../core/i18n/catalogue.ts';
import { namedVoice } from '../../core/interactions/safe-text.ts';
import { t } from './strings.ts';
import type { Refusal } from '../../core/refusal.ts';
import type { StandIn } from '../../core/settings/speech-request.ts';

/** Why the free voice speaks: the paid voice refused for money, or the service failing to answer. */
export type FallbackCause = Refusal | StandIn['cause'];

/** Why the paid voice did not speak, as the channel may read it. */
export function fallbackReason(locale: string | null | undefined, cause: FallbackCause): string {
  if (cause === 'service-failed') return t(locale, 'fallback.reason.service');
  if (cause === 'month-used-up') return t(locale, 'fallback.reason.month');
  if (cause === 'engine-failed') return t(locale, 'fallback.reason.engine');
  const code = cause.reason.code;
  const key: MessageKey =
    code === 'budget-member-day'
      ? 'fallback.reason.member'
      : code === 'budget-guild-month'
        ? 'fallback.reason.server'
        : 'fallback.reason.month';
  return t(locale, key);
}

/**
 * The voice a reply names: the free voice, and why it speaks; after the characters its order paid in the paid voice
 * first, when it did (the member is never left to think the paid part cost nothing).
 */
export function fallbackVoiceLabel(
  locale: string | null | undefined,
  voice: string,
  cause: FallbackCause,
  paidBefore = 0,
  /** The credit the voice's engine asks for (`VOICEVOX:<speaker>`), said with its name. */
  credit?: string,
): string {
  const params = { voice: namedVoice(voice, credit), reason: fallbackReason(locale, cause) };
  if (paidBefore > 0) return t(locale, 'voice.fallbackAfterPaid', { ...params, paid: paidBefore });
  return t(locale, 'voice.fallback', params);
}
