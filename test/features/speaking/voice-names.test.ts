// How replies name a voice, read by Discord's rules: a cloned voice's ID is the service's own string, so whatever it
// holds (backticks to close the code, a masked link, a mention, a timestamp) nothing in it is live.
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../../src/core/sourcing/voice-choice.ts';
import { fallbackVoiceLabel } from '../../../src/features/speaking/outcome-words.ts';
import { voiceLabel } from '../../../src/features/speaking/speaking-command.ts';
import { HOSTILE_NAMES, liveParts, seenText } from '../../support/seen-in-discord.ts';

const IDS = [
  'clone_`[l](https://evil.example/c)`',
  'clone_` @everyone <@300000000000000011> <t:0:R> `',
  'clone_``[l](https://e.vil)``',
  ...HOSTILE_NAMES,
];

describe('a voice named in a reply', () => {
  it.each(IDS)('%j as a chosen voice or the free voice: nothing in it live, its words shown', (id) => {
    const chosen = resolveSettings({ options: { voice: id }, guildLocale: 'en-US' });
    for (const label of [
      voiceLabel('en-US', chosen, 'server'),
      voiceLabel('en-US', chosen, 'server', 'VOICEVOX:[a](http://a.b)'),
      fallbackVoiceLabel('ja', id, 'month-used-up'),
    ]) {
      const said = `Spoke 1.0 s with ${label}.`;
      expect(liveParts(said)).toEqual([]);
      expect(seenText(said)).toContain(id.replace(/[`\r\n]/g, '').slice(0, 40));
    }
  });
});
