// What discord-markdown.ts makes of a message's text: Discord's Markdown as a tree the page draws with DOM nodes.

/** Inline parts: text, styles, code, links, mentions, timestamps and custom emoji. */
export type InlineNode =
  | { type: 'text'; text: string }
  | { type: 'strong' | 'em' | 'underline' | 'strike' | 'spoiler'; children: InlineNode[] }
  | { type: 'code'; text: string }
  /** A masked link `[text](url)`, `<url>` or a bare URL: http(s) only (anything else stays text). */
  | { type: 'link'; url: string; masked: boolean; children: InlineNode[] }
  /**
   * `<@id>` / `<@!id>` (user), `<#id>` (channel), `<@&id>` (role), `</name:id>` (a slash command, `id` its name),
   * `@everyone` and `@here` (`id` the word).
   */
  | { type: 'mention'; kind: 'user' | 'channel' | 'role' | 'command' | 'everyone' | 'here'; id: string }
  /** `<t:seconds[:style]>`, style one of t T d D f F R (default f). */
  | { type: 'timestamp'; seconds: number; style: string }
  /** `<:name:id>` or `<a:name:id>`: a server's emoji, shown by name (its picture is on Discord's CDN). */
  | { type: 'emoji'; name: string };

/** Block parts: paragraphs (lines of inline parts), headers, subtext, quotes, lists and code blocks. */
export type BlockNode =
  | { type: 'paragraph'; children: InlineNode[] }
  | { type: 'heading'; level: 1 | 2 | 3; children: InlineNode[] }
  | { type: 'subtext'; children: InlineNode[] }
  | { type: 'quote'; children: BlockNode[] }
  | { type: 'list'; ordered: boolean; start: number; items: BlockNode[][] }
  | { type: 'codeBlock'; language: string; text: string };
