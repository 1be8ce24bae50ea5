// Discord's Markdown as the playground's page reads it (the parser the page runs, served as its own source).
import { describe, expect, it } from 'vitest';
import { parseDiscordMarkdown } from '@saybot/playground/discord-markdown.ts';
import type { BlockNode, InlineNode } from '@saybot/playground/markdown-nodes.ts';

/** The one paragraph's inline parts of `text`. */
const inline = (text: string): InlineNode[] => {
  const blocks = parseDiscordMarkdown(text);
  expect(blocks).toHaveLength(1);
  const [block] = blocks as [BlockNode];
  if (block.type !== 'paragraph') throw new Error(`not a paragraph: ${block.type}`);
  return block.children;
};
const text = (value: string): InlineNode => ({ type: 'text', text: value });

describe("Discord's Markdown", () => {
  it('reads the styles, nested, and leaves a word with underscores alone', () => {
    expect(inline('**bold** *it* _it_ __under__ ~~gone~~ ||secret||')).toEqual([
      { type: 'strong', children: [text('bold')] },
      text(' '),
      { type: 'em', children: [text('it')] },
      text(' '),
      { type: 'em', children: [text('it')] },
      text(' '),
      { type: 'underline', children: [text('under')] },
      text(' '),
      { type: 'strike', children: [text('gone')] },
      text(' '),
      { type: 'spoiler', children: [text('secret')] },
    ]);
    expect(inline('***both***')).toEqual([{ type: 'strong', children: [{ type: 'em', children: [text('both')] }] }]);
    expect(inline('__*under and italic*__')).toEqual([
      { type: 'underline', children: [{ type: 'em', children: [text('under and italic')] }] },
    ]);
    expect(inline('snake_case_name and 2 * 3 * 4')).toEqual([text('snake_case_name and 2 * 3 * 4')]);
  });

  it('keeps code as it is written, and an escaped sign as the sign', () => {
    expect(inline('`**not bold**` and ``a ` b``')).toEqual([
      { type: 'code', text: '**not bold**' },
      text(' and '),
      { type: 'code', text: 'a ` b' },
    ]);
    expect(inline('\\*\\*plain\\*\\*')).toEqual([text('**plain**')]);
    expect(parseDiscordMarkdown('Look:\n```js\nconst a = "**b**";\n```\nafter')).toEqual([
      { type: 'paragraph', children: [text('Look:')] },
      { type: 'codeBlock', language: 'js', text: 'const a = "**b**";' },
      { type: 'paragraph', children: [text('after')] },
    ]);
  });

  it('links http(s) only: masked, bare and in angle brackets; anything else stays text', () => {
    expect(inline('[the manual](https://example.com/a_b) <https://example.com/c>')).toEqual([
      { type: 'link', url: 'https://example.com/a_b', masked: true, children: [text('the manual')] },
      text(' '),
      { type: 'link', url: 'https://example.com/c', masked: false, children: [text('https://example.com/c')] },
    ]);
    expect(inline('see https://example.com/x_y_z.')).toEqual([
      text('see '),
      { type: 'link', url: 'https://example.com/x_y_z', masked: false, children: [text('https://example.com/x_y_z')] },
      text('.'),
    ]);
    expect(inline('[click](javascript:alert(1)) [data](data:text/html,x)')).toEqual([
      text('[click](javascript:alert(1)) [data](data:text/html,x)'),
    ]);
    // A masked link's text holds no link.
    expect(inline('[https://a.example](https://b.example)')).toEqual([
      { type: 'link', url: 'https://b.example', masked: true, children: [text('https://a.example')] },
    ]);
  });

  it('reads mentions, timestamps and custom emoji; an unknown timestamp style stays text', () => {
    expect(inline('<@1> <@!2> <#3> <@&4> </scene save:5> <t:1700000000:R> <t:0> <:wave:6> <t:1:x>')).toEqual([
      { type: 'mention', kind: 'user', id: '1' },
      text(' '),
      { type: 'mention', kind: 'user', id: '2' },
      text(' '),
      { type: 'mention', kind: 'channel', id: '3' },
      text(' '),
      { type: 'mention', kind: 'role', id: '4' },
      text(' '),
      { type: 'mention', kind: 'command', id: 'scene save' },
      text(' '),
      { type: 'timestamp', seconds: 1_700_000_000, style: 'R' },
      text(' '),
      { type: 'timestamp', seconds: 0, style: 'f' },
      text(' '),
      { type: 'emoji', name: 'wave' },
      text(' <t:1:x>'),
    ]);
  });

  it('reads @everyone and @here as mentions, as Discord draws them; an escaped one stays text', () => {
    expect(inline('Hey @everyone and @here, not \\@everyone')).toEqual([
      text('Hey '),
      { type: 'mention', kind: 'everyone', id: 'everyone' },
      text(' and '),
      { type: 'mention', kind: 'here', id: 'here' },
      text(', not @everyone'),
    ]);
  });

  it('reads headers, subtext, quotes (one line, or >>> to the end) and lists, nested by indenting', () => {
    expect(parseDiscordMarkdown('# One\n## Two\n### Three\n#### not\n-# small')).toEqual([
      { type: 'heading', level: 1, children: [text('One')] },
      { type: 'heading', level: 2, children: [text('Two')] },
      { type: 'heading', level: 3, children: [text('Three')] },
      { type: 'paragraph', children: [text('#### not')] },
      { type: 'subtext', children: [text('small')] },
    ]);
    expect(parseDiscordMarkdown('> a\n> b\nc\n>>> d\ne')).toEqual([
      { type: 'quote', children: [{ type: 'paragraph', children: [text('a\nb')] }] },
      { type: 'paragraph', children: [text('c')] },
      { type: 'quote', children: [{ type: 'paragraph', children: [text('d\ne')] }] },
    ]);
    const item = (value: string): BlockNode[] => [{ type: 'paragraph', children: [text(value)] }];
    expect(parseDiscordMarkdown('- a\n  - a1\n- b\n3. c\n4. d')).toEqual([
      {
        type: 'list',
        ordered: false,
        start: 1,
        items: [[...item('a'), { type: 'list', ordered: false, start: 1, items: [item('a1')] }], item('b')],
      },
      { type: 'list', ordered: true, start: 3, items: [item('c'), item('d')] },
    ]);
  });
});
