// What keeps SayBot's own messages harmless, wherever they go (a reply, a DM, a channel post).

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
 * Words SayBot did not write (an engine's voice and credit names), said as written in a message, on one line: every
 * character that could start Discord's markdown, a masked or bare link, a mention, a timestamp, a command or an emoji
 * is escaped, wherever it stands (repeated and nested brackets included), so a member reads exactly these words and
 * nothing in them is live. The one escaper of outside names: the service's own words are quoted as code (echoCode).
 */
export function asWritten(text: string): string {
  return (
    text
      .replace(/[\r\n\u2028\u2029]+/g, ' ')
      // Styles, code, spoilers, masked links, <mentions>, <t:...>, </command:id>, <:emoji:id>, @everyone and @here.
      .replace(/[\\*_~|`[\]<>@]/g, '\\$&')
      // A bare link (any scheme://) is linked wherever it stands.
      .replace(/:(?=\/\/)/g, '\\:')
      // What starts a line: a heading, subtext or a list.
      .replace(/^(\s*)([#+-])/, '$1\\$2')
      .replace(/^(\s*\d+)\./, '$1\\.')
  );
}
