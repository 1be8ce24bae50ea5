// Words from outside (an engine's names) said as written: read by Discord's rules, nothing in them is live and every
// character shows as it was sent, however the brackets, mentions and links are stacked.
import { describe, expect, it } from 'vitest';
import { asWritten, echoCode } from '../../../src/core/interactions/safe-text.ts';
import { HOSTILE_NAMES, liveParts, seenText } from '../../support/seen-in-discord.ts';

describe('asWritten', () => {
  it.each(HOSTILE_NAMES)('shows %j as written, nothing in it live', (name) => {
    const shown = asWritten(name);
    expect(liveParts(`Voices: ${shown}.`)).toEqual([]);
    expect(seenText(`Voices: ${shown}.`)).toBe(`Voices: ${name}.`);
    // At the start of a message too, where a heading, a list or a quote would begin.
    expect(liveParts(shown)).toEqual([]);
    expect(seenText(shown)).toBe(name);
  });

  it('keeps a name to one line, and leaves plain words alone', () => {
    expect(asWritten('a\nb\r\nc')).toBe('a b c');
    expect(asWritten('VOICEVOX:ダブル蓮 (ノーマル)')).toBe('VOICEVOX:ダブル蓮 (ノーマル)');
  });
});

describe('echoCode', () => {
  // Backticks of its own would close the code and let the rest go live: they are left out.
  const closers = ['a`[l](https://e.vil)`', 'a` @everyone <@1> <t:0:R> `', 'a``[l](https://e.vil)``b'];
  it.each([...HOSTILE_NAMES, ...closers])('shows %j as code nothing in it can close', (text) => {
    const shown = echoCode(text, 200);
    expect(liveParts(`Said: ${shown}.`)).toEqual([]);
    expect(liveParts(shown)).toEqual([]);
    expect(seenText(`Said: ${shown}.`)).toBe(`Said: ${text.replace(/[`\r\n]/g, '')}.`);
  });
});
