// What a member sees of a message's text: Discord's Markdown as its client reads it (the playground's parser, which
// follows the client's rules), for tests that assert what is live in a message, not how it is spelt.
import { parseDiscordMarkdown } from '@saybot/playground/discord-markdown.ts';
import type { BlockNode, InlineNode } from '@saybot/playground/markdown-nodes.ts';

type Live = Exclude<InlineNode, { type: 'text' | 'code' | 'strong' | 'em' | 'underline' | 'strike' | 'spoiler' }>;

function inlines(blocks: readonly BlockNode[]): InlineNode[] {
  return blocks.flatMap((block): InlineNode[] => {
    if (block.type === 'quote') return inlines(block.children);
    if (block.type === 'list') return block.items.flatMap(inlines);
    if (block.type === 'codeBlock') return [{ type: 'code', text: block.text }];
    return block.children;
  });
}

function flat(nodes: readonly InlineNode[]): InlineNode[] {
  return nodes.flatMap((node) => ('children' in node ? [node, ...flat(node.children)] : [node]));
}

/** The parts of `content` a member could follow or that name someone or a time: links, mentions, timestamps, emoji. */
export function liveParts(content: string): Live[] {
  return flat(inlines(parseDiscordMarkdown(content))).filter(
    (node): node is Live =>
      node.type === 'link' || node.type === 'mention' || node.type === 'timestamp' || node.type === 'emoji',
  );
}

/** The words a member reads in `content`: escapes and styles undone, code as written, lines joined by `\n`. */
export function seenText(content: string): string {
  const read = (nodes: readonly InlineNode[]): string =>
    nodes
      .map((node) =>
        node.type === 'text' || node.type === 'code'
          ? node.text
          : 'children' in node
            ? read(node.children)
            : node.type === 'mention'
              ? `@${node.id}`
              : node.type === 'timestamp'
                ? `[time ${node.seconds}]`
                : `:${node.name}:`,
      )
      .join('');
  const blocks = (list: readonly BlockNode[]): string[] =>
    list.flatMap((block) =>
      block.type === 'quote'
        ? blocks(block.children)
        : block.type === 'list'
          ? block.items.flatMap(blocks)
          : block.type === 'codeBlock'
            ? [block.text]
            : [read(block.children)],
    );
  return blocks(parseDiscordMarkdown(content)).join('\n');
}

/** Names an engine could send to make a message link, ping, style or date something. */
export const HOSTILE_NAMES: readonly string[] = [
  '[a](http://a.b)[Nitro](http://e.vil/x)',
  '[[x](http://y)](http://z)',
  '[Nitro](<https://e.vil>) and [more](https://e.vil "title")',
  '<@123> <@!123> <@&1> <#1> <t:1:R> <t:1700000000> </cmd:1> </scene save:12> <:wave:6> <a:spin:7>',
  'https://e.vil http://e.vil/a_b <https://e.vil/c>',
  '@everyone and @here',
  '**bold** *it* _it_ __under__ ~~gone~~ ||secret|| `code` ```block```',
  '\\[escaped](http://e.vil) \\\\[doubly](http://e.vil)',
  '# heading',
  '-# subtext',
  '- item',
  '1. item',
  '> quoted',
  '>>> quoted to the end',
  'VOICEVOX:ダブル蓮 (ノーマル)',
];
