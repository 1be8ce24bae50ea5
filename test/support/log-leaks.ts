import type { InteractionHandle } from '@saybot/local-discord/types.ts';

/** The bot's log lines must not hold secrets, message bodies or file bytes. Kept in step with src/core/log.ts. */
const MAX_LINE_BYTES = 32 * 1024;
const EPHEMERAL = 64;
/** Shorter private replies ("Done.") are ordinary words that may appear in any line. */
const MIN_PRIVATE_TEXT = 24;
/** Bytes spread into an object ({"0":12,"1":200,…}) or Buffer.toJSON's data array. */
const BYTE_KEYS = /"0":\d{1,3},"1":\d{1,3},"2":\d{1,3}/;
const BYTE_ARRAY = /\[(?:\d{1,3},){63,}\d{1,3}/;

function flagsOf(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

/** The text of every private (ephemeral) reply the bot sent to these interactions. */
export function privateTexts(interactions: ReadonlyArray<InteractionHandle>): string[] {
  const texts = new Set<string>();
  for (const interaction of interactions) {
    for (const r of interaction.responses) {
      const ephemeral = ((r.flags ?? 0) | flagsOf(r.message?.['flags'])) & EPHEMERAL;
      if (ephemeral && r.content !== undefined && r.content.length >= MIN_PRIVATE_TEXT) texts.add(r.content);
    }
  }
  return [...texts];
}

/** What is wrong with these log lines, one entry per problem (empty: clean). Never quotes a token. */
export function logLeaks(lines: readonly string[], interactions: ReadonlyArray<InteractionHandle>): string[] {
  const tokens = interactions.map((i) => i.token);
  const texts = privateTexts(interactions).map((t) => ({ raw: t, json: JSON.stringify(t).slice(1, -1) }));
  const problems: string[] = [];
  lines.forEach((line, index) => {
    const where = `log line ${index + 1} (${line.slice(0, 80).replace(/"/g, "'")}…)`;
    const bytes = Buffer.byteLength(line);
    if (bytes > MAX_LINE_BYTES) problems.push(`${where} is ${bytes} bytes long`);
    if (tokens.some((token) => line.includes(token))) problems.push(`${where} holds an interaction token`);
    const text = texts.find((t) => line.includes(t.json) || line.includes(t.raw));
    if (text) problems.push(`${where} holds the text of a private reply: ${JSON.stringify(text.raw.slice(0, 40))}`);
    if (BYTE_KEYS.test(line) || BYTE_ARRAY.test(line)) problems.push(`${where} holds bytes, one JSON value per byte`);
  });
  return problems;
}
