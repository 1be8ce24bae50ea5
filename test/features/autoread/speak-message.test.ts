// The "Speak" context menu's text: the picked message cleaned as auto-read cleans it. A table of message shapes,
// then real discord.js Messages built by the client from the local Discord's MESSAGE_CREATE.
import { Events, GatewayIntentBits, type Message } from 'discord.js';
import { describe, expect, it } from 'vitest';
import {
  dictionaryOf,
  speakableMessage,
  speakMessageText,
  speakMessageWords,
  type SpeakableMessage,
  type SpeakOptions,
} from '../../../src/features/autoread/speak-message.ts';
import type { ChatMessage } from '@saybot/local-discord/message-create.ts';
import { resultLimit } from '../../../src/features/autoread/dictionary/dictionary-limits.ts';
import { GatewayIntent } from '@saybot/local-discord/state.ts';
import { guildSpec, useLoggedInClient } from '../../packages/local-discord/helpers.ts';

const names = { users: { '111': 'Alice' }, roles: { '900': 'Moderators' }, channels: { '500': 'general' } };
/** A message as auto-read's MessageContent: its text and what clean-up reads. */
const msg = (content: string, cleanup: SpeakableMessage['cleanup'] = {}): SpeakableMessage => ({ content, cleanup });

describe('speakMessageText', () => {
  const cases: Array<[string, SpeakableMessage, SpeakOptions, string]> = [
    [
      'a URL and a mention, cleaned',
      msg('hey <@111> look https://www.youtube.com/watch?v=x', names),
      {},
      'hey Alice look youtube.com link',
    ],
    ['a role and a channel by name', msg('<@&900> see <#500>', names), {}, 'Moderators see general'],
    ['an unknown mention as a word, never the ID', msg('ask <@222>', names), {}, 'ask someone'],
    ['markdown and emoji gone', msg('**big** news 🎉 ~~old~~'), {}, 'big news old'],
    [
      'an image announced after the text',
      msg('my cat', { attachments: [{ filename: 'cat.png', contentType: 'image/png' }] }),
      {},
      'my cat, image',
    ],
    ['a reply announced first', msg('agreed', { replyTo: 'Bob' }), {}, 'replying to Bob, agreed'],
    ['a forwarded message announced', msg('news', { forwarded: true }), {}, 'forwarded message, news'],
    [
      'Korean words for a Korean server',
      msg('이거 봐 https://www.youtube.com/watch?v=x', names),
      { language: 'ko' },
      '이거 봐 youtube.com 링크',
    ],
    [
      'Japanese words for a Japanese server',
      msg('これ見て https://x.com/a'),
      { language: 'ja' },
      'これ見て x.comのリンク',
    ],
    [
      'the dictionary after clean-up',
      msg('SayBot reads <@111>', names),
      { dictionary: [{ word: 'SayBot', reading: 'say bot' }] },
      'say bot reads Alice',
    ],
    [
      'a long message cut with "and so on"',
      msg('word '.repeat(30)),
      { maxLength: 40 },
      'word word word word word word, and so on',
    ],
    ['nothing to speak', msg('😂😂 ~~ **'), {}, ''],
  ];
  it.each(cases)('%s', (_name, message, options, expected) => {
    expect(speakMessageText(message, options)).toBe(expected);
  });

  it('leaves nothing for the dictionary to turn into speech when the message had none', () => {
    expect(speakMessageText(msg('👍'), { dictionary: [{ word: 'x', reading: 'ex' }] })).toBe('');
  });
});

describe('speakMessageWords: the menu with the server dictionary as auto-read applies it', () => {
  it('applies words and patterns, and keeps "hi" within the cap whatever its entries say', async () => {
    const entries = [
      { word: 'SayBot', reading: 'say bot' },
      { pattern: '(\\d+)km', reading: '$1 kilometres' },
    ];
    expect(await speakMessageWords(msg('SayBot ran 5km'), { dictionary: dictionaryOf('speak-test-1', entries) })).toBe(
      'say bot ran 5 kilometres',
    );
    const costly = [
      { pattern: '.', reading: '$&'.repeat(50) },
      { pattern: '(?:.)', reading: 'r'.repeat(100) },
    ];
    const said = await speakMessageWords(msg('hi'), { dictionary: dictionaryOf('speak-test-2', costly) });
    expect([...said].length).toBeGreaterThan(2);
    expect([...said].length).toBeLessThanOrEqual(resultLimit(2));
    expect(await speakMessageWords(msg('👍'), { dictionary: dictionaryOf('speak-test-2', costly) })).toBe('');
  });
});

describe('speakableMessage from a discord.js Message', () => {
  const guild = guildSpec(1);
  const alice = guild.members[0]!;
  const bob = guild.members[1]!;

  const rig = useLoggedInClient(
    { guilds: [guild], allowedPrivilegedIntents: GatewayIntent.MessageContent },
    { intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent] },
  );

  let next = 1;
  async function receive(message: Omit<ChatMessage, 'id' | 'channelId' | 'guildId'>): Promise<Message> {
    const id = `50000000000000${String(next++).padStart(4, '0')}`;
    const received = new Promise<Message>((resolve) => {
      const listener = (m: Message) => {
        if (m.id !== id) return;
        rig.client.off(Events.MessageCreate, listener);
        resolve(m);
      };
      rig.client.on(Events.MessageCreate, listener);
    });
    expect(await rig.fake.postMessage({ id, channelId: guild.textChannelId, guildId: guild.id, ...message })).toBe(
      true,
    );
    return received;
  }

  it('speaks a message with a URL and a mention: the mentioned member by name, the URL as a link word', async () => {
    const message = await receive({
      author: { id: alice.id, username: alice.username },
      member: { roles: [] },
      content: `<@${bob.id}> did you see https://www.youtube.com/watch?v=abc ?`,
      mentions: [{ id: bob.id, username: bob.username, global_name: 'Bobby' }],
    });
    const speakable = speakableMessage(message);
    expect(speakable.cleanup.users).toEqual({ [bob.id]: 'Bobby' });
    expect(speakMessageText(speakable)).toBe('Bobby did you see youtube.com link?');
  });

  it('names files and stickers, and says "someone" for a mention it cannot name', async () => {
    const message = await receive({
      author: { id: alice.id, username: alice.username },
      member: { roles: [] },
      content: 'look <@299999999999999999>',
      attachments: [
        { id: '1', filename: 'clip.mp4', content_type: 'video/mp4', size: 10, url: 'http://127.0.0.1/clip.mp4' },
      ],
      stickers: [{ id: '2', name: 'Wave', format_type: 1 }],
    });
    expect(speakMessageText(speakableMessage(message))).toBe('look someone, video, sticker Wave');
  });
});
