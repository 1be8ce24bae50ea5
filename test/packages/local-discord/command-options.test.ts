// A slash command's options held to its registration as Discord holds them: a number outside min/max, text over
// max_length, a missing required option, a value of the wrong type, an unknown option, a value not among the choices,
// a sub-command not chosen, a message command used as a slash command: refused (nothing reaches the bot); options
// within the declaration arrive, with their declared types.
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  Events,
  type ChatInputCommandInteraction,
} from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { guildSpec, useLoggedInClient } from './helpers.ts';

const g1 = guildSpec(1);
const alice = g1.members[0]!;

describe('the local Discord checks a command’s options against its registration', () => {
  const rig = useLoggedInClient({ guilds: [g1] });
  const received: ChatInputCommandInteraction[] = [];
  beforeAll(async () => {
    await rig.client.application!.commands.set(
      [
        {
          name: 'speak',
          description: 'Speak',
          options: [
            {
              type: ApplicationCommandOptionType.String,
              name: 'text',
              description: 'Text',
              required: true,
              max_length: 4000,
            },
            {
              type: ApplicationCommandOptionType.Number,
              name: 'speed',
              description: 'Speed',
              min_value: 0.5,
              max_value: 2,
            },
            { type: ApplicationCommandOptionType.Integer, name: 'times', description: 'Times', min_value: 1 },
            {
              type: ApplicationCommandOptionType.String,
              name: 'format',
              description: 'Format',
              choices: [
                { name: 'WAV', value: 'wav' },
                { name: 'MP3', value: 'mp3' },
              ],
            },
            { type: ApplicationCommandOptionType.User, name: 'who', description: 'Who' },
          ],
        },
        {
          name: 'dictionary',
          description: 'Dictionary',
          options: [
            {
              type: ApplicationCommandOptionType.Subcommand,
              name: 'add',
              description: 'Add',
              options: [
                {
                  type: ApplicationCommandOptionType.String,
                  name: 'word',
                  description: 'Word',
                  required: true,
                  max_length: 50,
                },
              ],
            },
          ],
        },
        { type: ApplicationCommandType.Message, name: 'Read aloud' },
      ],
      g1.id,
    );
    rig.client.on(Events.InteractionCreate, (interaction) => {
      if (interaction.isChatInputCommand()) received.push(interaction);
    });
  });

  const use = (
    name: string,
    options: Array<{ name: string; type?: number; value?: string | number | boolean; options?: unknown[] }>,
  ) => rig.fake.command({ guildId: g1.id, userId: alice.id, name, options: options as never });

  it.each([
    [
      'a number over max_value',
      'speak',
      [
        { name: 'text', value: 'hi' },
        { name: 'speed', value: 7 },
      ],
      /speed: at most 2/,
    ],
    [
      'a number under min_value',
      'speak',
      [
        { name: 'text', value: 'hi' },
        { name: 'speed', value: 0.1 },
      ],
      /speed: at least 0.5/,
    ],
    [
      'an integer under min_value',
      'speak',
      [
        { name: 'text', value: 'hi' },
        { name: 'times', value: 0 },
      ],
      /times: at least 1/,
    ],
    [
      'a fraction for an integer',
      'speak',
      [
        { name: 'text', value: 'hi' },
        { name: 'times', type: 4, value: 1.5 },
      ],
      /times: not an integer/,
    ],
    ['text over max_length', 'speak', [{ name: 'text', value: 'x'.repeat(4001) }], /text: at most 4000 characters/],
    ['a missing required option', 'speak', [{ name: 'speed', value: 1 }], /text: required/],
    [
      'a string for a number',
      'speak',
      [
        { name: 'text', value: 'hi' },
        { name: 'speed', value: 'fast' },
      ],
      /speed: of type 10/,
    ],
    ['a declared type given wrongly', 'speak', [{ name: 'text', type: 5, value: true }], /text: of type 3/],
    [
      'an unknown option',
      'speak',
      [
        { name: 'text', value: 'hi' },
        { name: 'volume', value: 3 },
      ],
      /volume: not an option/,
    ],
    [
      'a value not among the choices',
      'speak',
      [
        { name: 'text', value: 'hi' },
        { name: 'format', value: 'ogg' },
      ],
      /format: not one of its choices/,
    ],
    [
      'not an ID for a user',
      'speak',
      [
        { name: 'text', value: 'hi' },
        { name: 'who', value: 'alice' },
      ],
      /who: not an ID/,
    ],
    ['no sub-command chosen', 'dictionary', [{ name: 'word', value: 'hi' }], /choose one of add/],
    [
      'a sub-command’s limit',
      'dictionary',
      [{ name: 'add', options: [{ name: 'word', value: 'w'.repeat(51) }] }],
      /add\.word: at most 50/,
    ],
    ['a message command as a slash command', 'Read aloud', [], /Unknown application command/],
  ])('refuses %s, and nothing reaches the bot', async (_what, name, options, why) => {
    const before = received.length;
    await expect(use(name, options)).rejects.toThrow(why);
    await expect(use(name, options)).rejects.toThrow(/Discord refuses: (400 50035|404 10063)/);
    expect(received.length).toBe(before);
  });

  it('delivers options within the declaration, each with its declared type (an integer for a number option)', async () => {
    const handle = await use('speak', [
      { name: 'text', value: 'x'.repeat(4000) },
      { name: 'speed', value: 2 },
      { name: 'times', value: 3 },
      { name: 'format', value: 'mp3' },
      { name: 'who', value: alice.id },
    ]);
    await expect.poll(() => received.some((i) => i.id === handle.id), { timeout: 10_000 }).toBe(true);
    const got = received.find((i) => i.id === handle.id)!;
    expect(got.options.getNumber('speed')).toBe(2);
    expect(got.options.getInteger('times')).toBe(3);
    expect(got.options.getString('format')).toBe('mp3');
    expect(got.options.getUser('who')?.id).toBe(alice.id);
    const sub = await use('dictionary', [{ name: 'add', options: [{ name: 'word', value: 'w'.repeat(50) }] }]);
    await expect.poll(() => received.some((i) => i.id === sub.id), { timeout: 10_000 }).toBe(true);
  });
});
