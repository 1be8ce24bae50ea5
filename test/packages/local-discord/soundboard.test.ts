// The local Discord's soundboard and message components as Discord documents them: Create Guild Soundboard Sound
// (name 2-32, mp3 or ogg data URI, 512 KB, 5.2 s, Create Expressions, 8 slots), action rows of buttons, and
// Components V2 messages (IS_COMPONENTS_V2: their layout, the 40-component bound, no content, a flag for good).
import { PermissionFlagsBits as P } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { MAX_TOTAL_COMPONENTS_V2, checkComponents, customIdsOf } from '@saybot/local-discord/components.ts';
import { checkMessageBody } from '@saybot/local-discord/messages.ts';
import { createSound, deleteSound, oggOpusSeconds, SOUNDBOARD_SLOTS } from '@saybot/local-discord/soundboard.ts';
import { DEFAULT_PERMISSIONS, GuildRecord } from '@saybot/local-discord/state.ts';
import { checkVoiceMessage } from '@saybot/local-discord/voice-message.ts';

const bot = { id: '100000000000000021', username: 'SayBot', bot: true };

function guild(botPermissions = DEFAULT_PERMISSIONS | P.CreateGuildExpressions): GuildRecord {
  return new GuildRecord(
    {
      id: '400000000000000021',
      name: 'g',
      textChannelId: '410000000000000021',
      voiceChannels: [],
      members: [],
      botPermissions,
    },
    bot,
  );
}

/** The two places oggOpusSeconds reads: OpusHead's pre-skip and the last page's granule position (48 kHz). */
function ogg(seconds: number, padding = 0): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head.writeUInt16LE(312, 10);
  const page = Buffer.alloc(27);
  page.write('OggS', 0, 'latin1');
  page.writeBigInt64LE(BigInt(Math.round(seconds * 48_000) + 312), 6);
  return Buffer.concat([Buffer.from('OggS'), head, Buffer.alloc(padding), page]);
}

const uri = (data: Buffer, type = 'audio/ogg') => `data:${type};base64,${data.toString('base64')}`;

describe('soundboard sounds (the local Discord)', () => {
  it('reads an Ogg Opus length from its last granule position', () => {
    expect(oggOpusSeconds(ogg(3.5))).toBeCloseTo(3.5, 3);
  });

  it('creates a sound within the limits and answers the sound object', () => {
    const g = guild();
    const answer = createSound(g, bot, { name: 'gg', sound: uri(ogg(5.2)), volume: 0.5 });
    expect(answer).toMatchObject({ status: 201, json: { name: 'gg', volume: 0.5, guild_id: g.id, available: true } });
    expect(g.soundboardSounds).toHaveLength(1);
  });

  it('refuses what Discord refuses, naming the field', () => {
    const g = guild();
    const codeOf = (body: unknown) => {
      const answer = createSound(g, bot, body);
      return [
        answer.status,
        (answer.json as { code: number }).code,
        Object.keys((answer.json as { errors?: object }).errors ?? {})[0],
      ];
    };
    expect(codeOf({ name: 'g', sound: uri(ogg(1)) })).toEqual([400, 50035, 'name']);
    expect(codeOf({ name: 'x'.repeat(33), sound: uri(ogg(1)) })).toEqual([400, 50035, 'name']);
    expect(codeOf({ name: 'long', sound: uri(ogg(5.3)) })).toEqual([400, 50035, 'sound']);
    expect(codeOf({ name: 'big', sound: uri(ogg(1, 512 * 1024)) })).toEqual([400, 50035, 'sound']);
    expect(codeOf({ name: 'wav', sound: uri(ogg(1), 'audio/wav') })).toEqual([400, 50035, 'sound']);
    expect(codeOf({ name: 'loud', sound: uri(ogg(1)), volume: 2 })).toEqual([400, 50035, 'volume']);
    expect(g.soundboardSounds).toEqual([]);
    expect(createSound(guild(DEFAULT_PERMISSIONS), bot, { name: 'gg', sound: uri(ogg(1)) })).toMatchObject({
      status: 403,
      json: { code: 50013 },
    });
  });

  it('deletes a sound the bot created with Create Expressions, another only with Manage Expressions, an unknown one never', () => {
    const g = guild();
    const created = createSound(g, bot, { name: 'gg', sound: uri(ogg(1)) }).json as { sound_id: string };
    g.soundboardSounds.push({
      object: { sound_id: '500000000000000021', user: { id: '300000000000000021' } },
      contentType: 'audio/ogg',
      data: Buffer.alloc(0),
    });
    expect(deleteSound(g, bot, '500000000000000021')).toMatchObject({ status: 403, json: { code: 50013 } });
    expect(deleteSound(g, bot, created.sound_id)).toEqual({ status: 204 });
    expect(deleteSound(g, bot, created.sound_id)).toMatchObject({ status: 404, json: { code: 10097 } });
    const manager = guild(DEFAULT_PERMISSIONS | P.ManageGuildExpressions);
    manager.soundboardSounds.push({
      object: { sound_id: '500000000000000022', user: { id: '300000000000000021' } },
      contentType: 'audio/ogg',
      data: Buffer.alloc(0),
    });
    expect(deleteSound(manager, bot, '500000000000000022')).toEqual({ status: 204 });
    expect(manager.soundboardSounds).toEqual([]);
  });

  it(`has ${SOUNDBOARD_SLOTS} slots in a guild without boosts`, () => {
    const g = guild();
    for (let i = 0; i < SOUNDBOARD_SLOTS; i++)
      expect(createSound(g, bot, { name: `s${i}`, sound: uri(ogg(1)) }).status).toBe(201);
    expect(createSound(g, bot, { name: 'one more', sound: uri(ogg(1)) })).toMatchObject({
      status: 400,
      json: { code: 30045 },
    });
  });
});

describe('message components (the local Discord)', () => {
  const button = (custom_id: string) => ({ type: 2, style: 1, custom_id, label: 'x' });
  it('takes rows of up to 5 buttons with unique custom_ids of at most 100 characters', () => {
    expect(checkComponents([{ type: 1, components: [button('a'), button('b')] }])).toBeUndefined();
    expect(checkComponents([{ type: 1, components: [button('a'), button('a')] }])?.body.code).toBe(50035);
    expect(checkComponents([{ type: 1, components: [button('x'.repeat(101))] }])?.body.code).toBe(50035);
    expect(
      checkComponents([{ type: 1, components: Array.from({ length: 6 }, (_, i) => button(`b${i}`)) }])?.body.code,
    ).toBe(50035);
  });

  const V2 = 1 << 15;
  const text = (content: string) => ({ type: 10, content });
  const row = (...ids: string[]) => ({ type: 1, components: ids.map(button) });
  const fieldOf = (error: { body: { errors?: unknown } } | undefined) =>
    Object.keys((error?.body.errors ?? {}) as object)[0];

  it('takes a Components V2 container of text and a row of buttons, and finds the buttons in it', () => {
    const components = [{ type: 17, components: [text('Your voice message'), row('a', 'b', 'c')] }];
    expect(checkMessageBody({ flags: V2 | 64, components }, [], true)).toBeUndefined();
    expect(customIdsOf({ components })).toEqual(['a', 'b', 'c']);
    // Without the flag, the same layout is refused: only action rows are top-level in a legacy message.
    expect(fieldOf(checkMessageBody({ components }, [], true))).toBe('components.0.type');
  });

  it('refuses content or embeds with IS_COMPONENTS_V2, a type that is not top-level, and more than 40 components in all', () => {
    const components = [text('hi')];
    expect(fieldOf(checkMessageBody({ flags: V2, content: 'hello', components }, [], true))).toBe('content');
    expect(fieldOf(checkMessageBody({ flags: V2, embeds: [{ title: 'x' }], components }, [], true))).toBe('embeds');
    expect(fieldOf(checkComponents([button('a')], true))).toBe('components.0.type');
    expect(fieldOf(checkComponents([{ type: 17, components: [{ type: 17, components: [text('x')] }] }], true))).toBe(
      'components.0.components.0.type',
    );
    expect(fieldOf(checkComponents([{ type: 17, components: [text('')] }], true))).toBe(
      'components.0.components.0.content',
    );
    // 8 containers of a text and a row of 3 buttons: 8 × (1 + 1 + 1 + 3) = 48 components, 8 at the top.
    const many = Array.from({ length: 8 }, (_, i) => ({
      type: 17,
      components: [text('x'), row(`a${i}`, `b${i}`, `c${i}`)],
    }));
    expect(checkComponents(many.slice(0, 6), true)).toBeUndefined(); // 36
    expect(checkComponents(many, true)?.body.code).toBe(50035);
    expect(MAX_TOTAL_COMPONENTS_V2).toBe(40);
    // Custom IDs are unique across the whole message, nested or not.
    expect(fieldOf(checkComponents([row('a'), { type: 17, components: [row('a')] }], true))).toBe(
      'components.1.components.0.components.0.custom_id',
    );
  });

  it('keeps IS_COMPONENTS_V2 on a message for good: an edit cannot take it off or add content', () => {
    const current = { flags: V2, content: '', components: [text('hi')] };
    expect(checkMessageBody({ components: [text('edited')] }, [], false, current)).toBeUndefined();
    expect(fieldOf(checkMessageBody({ flags: 0, components: [row('a')] }, [], false, current))).toBe('flags');
    expect(fieldOf(checkMessageBody({ content: 'hello' }, [], false, current))).toBe('content');
    // Setting the flag on a legacy message needs its content emptied.
    const legacy = { flags: 0, content: 'old', components: [] };
    expect(fieldOf(checkMessageBody({ flags: V2, components: [text('new')] }, [], false, legacy))).toBe('content');
    expect(
      checkMessageBody({ flags: V2, content: null, components: [text('new')] }, [], false, legacy),
    ).toBeUndefined();
  });

  it('refuses components on a voice message', () => {
    const file = { index: 0, name: 'v.ogg', contentType: 'audio/ogg', data: Buffer.alloc(0) };
    const refused = checkVoiceMessage(
      { flags: 1 << 13, components: [{ type: 1, components: [button('a')] }] },
      [file],
      true,
    );
    expect(refused?.body.code).toBe(50159);
  });
});
