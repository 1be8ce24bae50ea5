// What keeps SayBot's own messages harmless, wherever they go (a reply, a DM, a channel post).

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

/**
 * Words SayBot did not write (engine voice and credit names), on one line with everything that could be live in
 * Discord escaped (markdown, links, mentions, timestamps, commands, emoji), nested brackets included. The one escaper
 * of outside names: the service's own words are quoted as code (echoCode).
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

/**
 * A voice as replies name it: its ID as code nothing in it can close (a clone's ID is the service's), with the credit
 * its engine's terms ask for where there is one (VOICEVOX:<speaker>).
 */
export function namedVoice(voice: string, credit?: string): string {
  const id = echoCode(voice, 80);
  return credit === undefined ? id : `${id} (${asWritten(credit)})`;
}
