// What keeps SayBot's own messages harmless, wherever they go (a reply, a DM, a channel post).
import { escapeMarkdown } from 'discord.js';

/** Nothing SayBot writes may ping anyone, whatever the text contains. */
export const NO_MENTIONS = { parse: [] as never[] };

/** What a member typed, safe to quote back: no `<`, `>`, `@`, backtick or line break, at most `max` characters. */
export function echo(text: string, max: number): string {
  const plain = text.replace(/[<>@`\r\n]/g, '');
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}

/** What a member typed as inline code, read exactly as written (no markdown, mention or link); at most `max`. */
export function echoCode(text: string, max: number): string {
  const plain = text.replace(/[`\r\n]/g, '');
  return `\`${plain.length > max ? `${plain.slice(0, max - 1)}…` : plain}\``;
}

/** Words SayBot did not write (engine voice and credit names), their markdown and masked links shown as text. */
export function asWritten(text: string): string {
  return escapeMarkdown(text, { maskedLink: true });
}
