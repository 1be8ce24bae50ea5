// What keeps SayBot's own messages harmless, wherever they go (a reply, a DM, a channel post).
import { escapeMarkdown } from 'discord.js';

/** Nothing SayBot writes may ping anyone, whatever the text contains. */
export const NO_MENTIONS = { parse: [] as never[] };

/**
 * What a member typed, made safe to quote back: no characters that could form a mention, a channel link or a
 * code span (`<`, `>`, `@`, backtick), no line breaks, at most `max` characters.
 */
export function echo(text: string, max: number): string {
  const plain = text.replace(/[<>@`\r\n]/g, '');
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}

/**
 * What a member typed, quoted as inline code so that it reads exactly as written (a pattern's `*`, `_`, `<`):
 * inside a code span Discord forms no markdown, mention or link. Backticks and line breaks removed, at most `max`.
 */
export function echoCode(text: string, max: number): string {
  const plain = text.replace(/[`\r\n]/g, '');
  return `\`${plain.length > max ? `${plain.slice(0, max - 1)}…` : plain}\``;
}

/**
 * Words SayBot did not write (an engine's voice and credit names), said as written in a message: its markdown, masked
 * links included, shown as text.
 */
export function asWritten(text: string): string {
  return escapeMarkdown(text, { maskedLink: true });
}
