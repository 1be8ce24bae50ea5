// Discord's Markdown, as its client reads a message: **bold**, *italics* and _italics_, __underline__, ~~strike~~,
// ||spoilers||, `code` and ```code blocks```, > quotes and >>> quotes to the end, # ## ### headers, -# subtext,
// - * 1. lists (nested by indenting), [masked links](https://…) and bare http(s) links, <@user>, <#channel>, <@&role>
// and </command:id> mentions, @everyone and @here, <t:seconds:style> timestamps, <:emoji:id>, and \ escapes. The
// result is a tree (markdown-nodes.ts) the page draws node by node: no HTML is ever made from a message's text.
//
// Hand-written rather than a library: the page is one script served from this origin with no bundler (the policy
// allows nothing else), and the libraries of Discord's dialect either make an HTML string (discord-markdown) or need
// bundling with simple-markdown, whose 0.7 line is no longer released (discord-markdown-parser); the dialect is small.
// The rules follow simple-markdown's, as Discord's client did when it published them, each one a regular expression
// that runs in time linear in what it scans (no nested repetition that could backtrack without end).
import type { BlockNode, InlineNode } from './markdown-nodes.ts';

/**
 * A message's text as Discord's client reads it. Self-contained on purpose: page-script.ts serves this function's
 * own source (Function.prototype.toString) in /page.js, so it refers to nothing outside its body.
 */
export function parseDiscordMarkdown(source: string): BlockNode[] {
  /** Discord's dates reach ±8.64e15 ms (JavaScript's own bound): a larger timestamp stays text. */
  const LATEST_SECONDS = 8_640_000_000_000;
  const STYLES = 'tTdDfFR';

  function inline(text: string, inLink: boolean): InlineNode[] {
    const out: InlineNode[] = [];
    const push = (chunk: string): void => {
      const last = out[out.length - 1];
      if (last !== undefined && last.type === 'text') last.text += chunk;
      else out.push({ type: 'text', text: chunk });
    };
    let rest = text;
    let before = '';
    while (rest !== '') {
      let m: RegExpExecArray | null;
      let used = 0;
      if ((m = /^\\([^\sA-Za-z0-9])/.exec(rest))) {
        push(m[1]!);
        used = m[0].length;
      } else if ((m = /^(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest))) {
        out.push({ type: 'code', text: m[2]! });
        used = m[0].length;
      } else if ((m = /^<@!?(\d{1,20})>/.exec(rest))) {
        out.push({ type: 'mention', kind: 'user', id: m[1]! });
        used = m[0].length;
      } else if ((m = /^@(everyone|here)(?![\p{L}\p{N}_])/u.exec(rest))) {
        out.push({ type: 'mention', kind: m[1] as 'everyone' | 'here', id: m[1]! });
        used = m[0].length;
      } else if ((m = /^<@&(\d{1,20})>/.exec(rest))) {
        out.push({ type: 'mention', kind: 'role', id: m[1]! });
        used = m[0].length;
      } else if ((m = /^<#(\d{1,20})>/.exec(rest))) {
        out.push({ type: 'mention', kind: 'channel', id: m[1]! });
        used = m[0].length;
      } else if ((m = /^<\/([-_\p{L}\p{N} ]{1,100}):(\d{1,20})>/u.exec(rest))) {
        out.push({ type: 'mention', kind: 'command', id: m[1]! });
        used = m[0].length;
      } else if ((m = /^<t:(-?\d{1,14})(?::([a-zA-Z]))?>/.exec(rest)) && Math.abs(Number(m[1])) <= LATEST_SECONDS) {
        const style = m[2] ?? 'f';
        if (!STYLES.includes(style)) {
          push(m[0]);
        } else out.push({ type: 'timestamp', seconds: Number(m[1]), style });
        used = m[0].length;
      } else if ((m = /^<a?:(\w{2,32}):\d{1,20}>/.exec(rest))) {
        out.push({ type: 'emoji', name: m[1]! });
        used = m[0].length;
      } else if (!inLink && (m = /^<(https?:\/\/[^\s<>]+)>/.exec(rest))) {
        out.push({ type: 'link', url: m[1]!, masked: false, children: [{ type: 'text', text: m[1]! }] });
        used = m[0].length;
      } else if (
        !inLink &&
        (m = /^\[((?:\\[\s\S]|[^\\\]])+)\]\(\s*<?(https?:\/\/[^\s<>)]+)>?(?:\s+"[^"\n]*")?\s*\)/.exec(rest))
      ) {
        out.push({ type: 'link', url: m[2]!, masked: true, children: inline(m[1]!, true) });
        used = m[0].length;
      } else if (!inLink && (m = /^https?:\/\/[^\s<]+/.exec(rest))) {
        // Punctuation ending a sentence is not part of the address; a closing parenthesis only when it opened none.
        let url = m[0].replace(/[.,:;!?'"]+$/, '');
        while (url.endsWith(')') && url.split('(').length < url.split(')').length) url = url.slice(0, -1);
        out.push({ type: 'link', url, masked: false, children: [{ type: 'text', text: url }] });
        used = url.length;
      } else if ((m = /^\*\*((?:\\[\s\S]|[^\\])+?)\*\*(?!\*)/.exec(rest))) {
        out.push({ type: 'strong', children: inline(m[1]!, inLink) });
        used = m[0].length;
      } else if ((m = /^__((?:\\[\s\S]|[^\\])+?)__(?!_)/.exec(rest))) {
        out.push({ type: 'underline', children: inline(m[1]!, inLink) });
        used = m[0].length;
      } else if ((m = /^\*(?=[^\s*])((?:\\[\s\S]|[^\\*])+?)\*(?!\*)/.exec(rest))) {
        out.push({ type: 'em', children: inline(m[1]!, inLink) });
        used = m[0].length;
      } else if (!/\w/.test(before) && (m = /^_((?:__|\\[\s\S]|[^\\_])+?)_(?!\w)/.exec(rest))) {
        out.push({ type: 'em', children: inline(m[1]!, inLink) });
        used = m[0].length;
      } else if ((m = /^~~((?:\\[\s\S]|[^\\])+?)~~/.exec(rest))) {
        out.push({ type: 'strike', children: inline(m[1]!, inLink) });
        used = m[0].length;
      } else if ((m = /^\|\|((?:\\[\s\S]|[^\\])+?)\|\|/.exec(rest))) {
        out.push({ type: 'spoiler', children: inline(m[1]!, inLink) });
        used = m[0].length;
      } else {
        // Plain text up to the next character that may start a rule (at least one character).
        const next = rest.slice(1).search(/[\\`<[*_~|@]|https?:\/\//);
        used = next < 0 ? rest.length : next + 1;
        push(rest.slice(0, used));
      }
      before = rest.slice(0, used).slice(-1);
      rest = rest.slice(used);
    }
    return out;
  }

  interface ListLine {
    indent: number;
    ordered: boolean;
    number: number;
    text: string;
  }

  function list(lines: ListLine[]): BlockNode {
    const first = lines[0]!;
    const items: BlockNode[][] = [];
    for (let i = 0; i < lines.length;) {
      const item = lines[i]!;
      let j = i + 1;
      while (j < lines.length && lines[j]!.indent > item.indent) j++;
      const content: BlockNode[] = [{ type: 'paragraph', children: inline(item.text, false) }];
      if (j > i + 1) content.push(list(lines.slice(i + 1, j)));
      items.push(content);
      i = j;
    }
    return { type: 'list', ordered: first.ordered, start: first.number, items };
  }

  const LIST_ITEM = /^( *)([-*]|\d{1,9}\.) +(\S.*)$/;

  /** Lines of text (no code block in them) as blocks; `inQuote`: a quote holds no quote. */
  function lineBlocks(text: string, inQuote: boolean): BlockNode[] {
    const out: BlockNode[] = [];
    let paragraph: string[] = [];
    const flush = (): void => {
      if (paragraph.length > 0) out.push({ type: 'paragraph', children: inline(paragraph.join('\n'), false) });
      paragraph = [];
    };
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      let m: RegExpExecArray | null;
      if (!inQuote && (m = /^>>> ?([\s\S]*)$/.exec(line))) {
        flush();
        out.push({ type: 'quote', children: lineBlocks([m[1]!, ...lines.slice(i + 1)].join('\n'), true) });
        return out;
      }
      if (!inQuote && /^> |^>$/.test(line)) {
        flush();
        const quoted: string[] = [];
        for (; i < lines.length && /^> |^>$/.test(lines[i]!); i++) quoted.push(lines[i]!.slice(2));
        i--;
        out.push({ type: 'quote', children: lineBlocks(quoted.join('\n'), true) });
      } else if ((m = /^(#{1,3}) +(\S.*)$/.exec(line))) {
        flush();
        out.push({ type: 'heading', level: m[1]!.length as 1 | 2 | 3, children: inline(m[2]!.trim(), false) });
      } else if ((m = /^-# +(\S.*)$/.exec(line))) {
        flush();
        out.push({ type: 'subtext', children: inline(m[1]!, false) });
      } else if (LIST_ITEM.test(line)) {
        flush();
        const items: ListLine[] = [];
        for (; i < lines.length && (m = LIST_ITEM.exec(lines[i]!)); i++) {
          const marker = m[2]!;
          const ordered = /\d/.test(marker);
          const item = { indent: m[1]!.length, ordered, number: ordered ? parseInt(marker, 10) : 1, text: m[3]! };
          // A numbered list after a bulleted one (or the other way) at the same depth is a list of its own.
          const first = items[0];
          if (first !== undefined && item.indent <= first.indent && item.ordered !== first.ordered) break;
          items.push(item);
        }
        i--;
        out.push(list(items));
      } else paragraph.push(line);
    }
    flush();
    return out;
  }

  // Code blocks first (they may start mid-line, and nothing inside them is Markdown), then the lines between them.
  const text = source.replace(/\r\n?/g, '\n');
  const out: BlockNode[] = [];
  const CODE_BLOCK = /```(?:([\w+#.-]{1,30})\n)?([\s\S]+?)```/g;
  let at = 0;
  for (let m = CODE_BLOCK.exec(text); m !== null; m = CODE_BLOCK.exec(text)) {
    const code = m[2]!.replace(/^\n+|\n+$/g, '');
    if (code === '') continue;
    const between = text.slice(at, m.index).replace(/\n$/, '');
    if (between !== '') out.push(...lineBlocks(between, false));
    out.push({ type: 'codeBlock', language: m[1] ?? '', text: code });
    at = m.index + m[0].length;
    if (text[at] === '\n') at++;
  }
  const last = text.slice(at);
  if (last !== '' || out.length === 0) out.push(...lineBlocks(last, false));
  return out;
}
