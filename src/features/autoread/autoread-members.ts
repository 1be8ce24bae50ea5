// Auto-read's members in words (pool, members' voices, ignored), each list cut to a share of 2,000 characters.
import { isPresetVoiceId, languageName } from '../../core/voice-catalogue/voices.ts';
import { poolOf, type AutoreadGuild, type AutoreadVoice } from './reading/voice.ts';
import { VARIANTS, parsePoolEntry, poolLanguage, type Variant } from './reading/voice-pool.ts';
import type { Store } from '../../core/store/types.ts';
import type { Saving } from '../../core/sourcing/voice-choice.ts';
import { t } from './strings.ts';
import { echo } from '../../core/interactions/safe-text.ts';

/** Characters one list may take in a reply (three lists and the settings stay within Discord's 2,000). */
const LIST_BUDGET = 400;

/** A pool variant as the lists name it: its speed (×1.25) or its shift in semitones (+3 st). */
const variantLabel = (variant: Variant): string =>
  variant.speed !== undefined ? `×${variant.speed}` : `${variant.pitch > 0 ? '+' : ''}${variant.pitch} st`;

/** A voice as a reply names it: a preset by ID, a clone by name, a variant as its preset and how it differs. */
export async function voiceLabel(store: Store, guildId: string, entry: string): Promise<string> {
  const parsed = parsePoolEntry(entry);
  const { voice } = parsed;
  if (parsed.speed !== undefined) return `\`${voice}\` ${variantLabel({ speed: parsed.speed })}`;
  if (parsed.pitch !== undefined) return `\`${voice}\` ${variantLabel({ pitch: parsed.pitch })}`;
  if (isPresetVoiceId(voice)) return `\`${voice}\``;
  const cloned = await store.voiceLibrary.get(guildId, voice);
  return cloned ? `"${echo(cloned.name, 40)}"` : `\`${echo(voice, 40)}\``;
}

/** Items joined with commas while they fit LIST_BUDGET, then "and N more" for the rest (`total` counts them all). */
function fitted(locale: string, items: readonly string[], total = items.length): string {
  const shown: string[] = [];
  let length = 0;
  for (const item of items) {
    if (length + item.length + 2 > LIST_BUDGET) break;
    shown.push(item);
    length += item.length + 2;
  }
  const more = total - shown.length;
  return more > 0 ? [...shown, t(locale, 'autoread.list.more', { count: more })].join(', ') : shown.join(', ');
}

/** The pool in force, after the voices it keeps but does not read (said so): the managers', or the default one. */
export async function describePool(
  store: Store,
  guild: AutoreadGuild,
  saving: Saving,
  locale: string,
): Promise<string> {
  const pool = await poolOf(store, guild, saving);
  const label = (voice: string) => voiceLabel(store, guild.id, voice);
  const skipped = pool.skipped.map(async (voice) => t(locale, 'autoread.pool.notRead', { voice: await label(voice) }));
  const voices = fitted(locale, await Promise.all([...skipped, ...pool.voices.map(label)]));
  if (pool.chosen) return voices;
  const language = languageName(poolLanguage(guild.preferredLocale), locale);
  const variants = VARIANTS.map(variantLabel).join(', ');
  return t(locale, 'autoread.pool.default', { voices, language, variants });
}

/** How many members' voices /autoread show lists at most (the rest are counted). */
const SHOWN_MEMBERS = 20;

/** The lines of /autoread show after the settings: the pool, the members' voices (distinct), the ignored members. */
export async function describeMembers(
  store: Store,
  guild: AutoreadGuild,
  saving: Saving,
  locale: string,
  distinct: boolean,
): Promise<string[]> {
  const [pool, given, ignored] = await Promise.all([
    describePool(store, guild, saving, locale),
    store.autoReadMembers.memberVoices(guild.id, SHOWN_MEMBERS),
    store.autoReadMembers.ignored(guild.id),
  ]);
  const lines = [t(locale, 'autoread.show.pool', { pool })];
  if (distinct) {
    const voices = await Promise.all(
      given.members.map(async (member) => `<@${member.userId}> ${await voiceLabel(store, guild.id, member.voice)}`),
    );
    lines.push(
      voices.length === 0
        ? t(locale, 'autoread.show.memberVoicesNone')
        : t(locale, 'autoread.show.memberVoices', { list: fitted(locale, voices, given.total) }),
    );
  }
  lines.push(
    ignored.length === 0
      ? t(locale, 'autoread.show.ignoredNone')
      : t(locale, 'autoread.show.ignored', {
          list: fitted(
            locale,
            ignored.map((id) => `<@${id}>`),
          ),
        }),
  );
  return lines;
}

/** /myvoice show's line on auto-read: which voice reads the member, and why. */
export async function describeAutoreadVoice(
  store: Store,
  guildId: string,
  locale: string,
  voice: AutoreadVoice,
): Promise<string> {
  if (voice.kind === 'pool-pending') return t(locale, 'myvoice.show.autoread.pending');
  const label = await voiceLabel(store, guildId, voice.voice);
  return t(locale, `myvoice.show.autoread.${voice.kind}`, { voice: label });
}
