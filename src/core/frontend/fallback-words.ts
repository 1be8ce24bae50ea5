// How a front-end names the free voice's fallback (src/core/speech/pipeline.ts: AcceptedJob.fallback) to members: the
// free voice that speaks, and in a few words why the paid one may not (no member's figures: the channel may read it).
import type { MessageKey } from '../i18n/catalogue.ts';
import { t } from '../i18n/translate.ts';
import type { Refusal } from '../refusal.ts';

/** Why the paid voice was refused, as the channel may read it. */
export function fallbackReason(locale: string | null | undefined, refusal: Refusal): string {
  const code = refusal.reason.code;
  const key: MessageKey =
    code === 'budget-member-day'
      ? 'fallback.reason.member'
      : code === 'budget-guild-month'
        ? 'fallback.reason.server'
        : 'fallback.reason.month';
  return t(locale, key);
}

/** The voice a reply names: the free voice, and why it speaks. */
export function fallbackVoiceLabel(locale: string | null | undefined, voice: string, refusal: Refusal): string {
  return t(locale, 'voice.fallback', { voice: `\`${voice}\``, reason: fallbackReason(locale, refusal) });
}
