// The local Discord's soundboard and message components as Discord documents them: Create Guild Soundboard Sound
// (name 2-32, mp3 or ogg data URI, 512 KB, 5.2 s, Create Expressions, 8 slots) and action rows of buttons.
import { PermissionFlagsBits as P } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { checkComponents } from '@saybot/local-discord/components.ts';
import { createSound, oggOpusSeconds, SOUNDBOARD_SLOTS } from '@saybot/local-discord/soundboard.ts';
import { DEFAULT_PERMISSIONS, GuildRecord } from '@saybot/local-discord/state.ts';
import { checkVoiceMessage } from '@saybot/local-discord/voice-message.ts';

const bot = { id: '100000000000000021', username: 'SayBot', bot: true };

function guild(botPermissions = DEFAULT_PERMISSIONS | P.CreateGuildExpressions): GuildRecord {
  return new GuildRecord({ id: '400000000000000021', name: 'g', textChannelId: '410000000000000021', voiceChannels: [], members: [], botPermissions }, bot);
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
      return [answer.status, (answer.json as { code: number }).code, Object.keys((answer.json as { errors?: object }).errors ?? {})[0]];
    };
    expect(codeOf({ name: 'g', sound: uri(ogg(1)) })).toEqual([400, 50035, 'name']);
    expect(codeOf({ name: 'x'.repeat(33), sound: uri(ogg(1)) })).toEqual([400, 50035, 'name']);
    expect(codeOf({ name: 'long', sound: uri(ogg(5.3)) })).toEqual([400, 50035, 'sound']);
    expect(codeOf({ name: 'big', sound: uri(ogg(1, 512 * 1024)) })).toEqual([400, 50035, 'sound']);
    expect(codeOf({ name: 'wav', sound: uri(ogg(1), 'audio/wav') })).toEqual([400, 50035, 'sound']);
    expect(codeOf({ name: 'loud', sound: uri(ogg(1)), volume: 2 })).toEqual([400, 50035, 'volume']);
    expect(g.soundboardSounds).toEqual([]);
    expect(createSound(guild(DEFAULT_PERMISSIONS), bot, { name: 'gg', sound: uri(ogg(1)) })).toMatchObject({ status: 403, json: { code: 50013 } });
  });

  it(`has ${SOUNDBOARD_SLOTS} slots in a guild without boosts`, () => {
    const g = guild();
    for (let i = 0; i < SOUNDBOARD_SLOTS; i++) expect(createSound(g, bot, { name: `s${i}`, sound: uri(ogg(1)) }).status).toBe(201);
    expect(createSound(g, bot, { name: 'one more', sound: uri(ogg(1)) })).toMatchObject({ status: 400, json: { code: 30045 } });
  });
});

describe('message components (the local Discord)', () => {
  const button = (custom_id: string) => ({ type: 2, style: 1, custom_id, label: 'x' });
  it('takes rows of up to 5 buttons with unique custom_ids of at most 100 characters', () => {
    expect(checkComponents([{ type: 1, components: [button('a'), button('b')] }])).toBeUndefined();
    expect(checkComponents([{ type: 1, components: [button('a'), button('a')] }])?.body.code).toBe(50035);
    expect(checkComponents([{ type: 1, components: [button('x'.repeat(101))] }])?.body.code).toBe(50035);
    expect(checkComponents([{ type: 1, components: Array.from({ length: 6 }, (_, i) => button(`b${i}`)) }])?.body.code).toBe(50035);
  });

  it('refuses components on a voice message', () => {
    const file = { index: 0, name: 'v.ogg', contentType: 'audio/ogg', data: Buffer.alloc(0) };
    const refused = checkVoiceMessage({ flags: 1 << 13, components: [{ type: 1, components: [button('a')] }] }, [file], true);
    expect(refused?.body.code).toBe(50159);
  });
});
