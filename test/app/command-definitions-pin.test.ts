// The command definitions SayBot registers with Discord, pinned: what `npm start` compares and deploys, every
// command with its options, choices, ranges and localisations. A refactor leaves them byte for byte as they were;
// an intended change updates the digest here, in the commit that makes it.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadCommandModules } from '../../src/app/command-modules.ts';
import { loadFeatureStrings } from '../../src/app/feature-strings.ts';

// Changed from 8de686d4… when /say, /emote, /preset save and /myvoice set gained `pitch`.
const PINNED = '7a3fa4dacce745c468ffb1058327fe7f9a92a9c8273da566df5c9e3c99c1aa0f';

describe('the command definitions SayBot deploys', () => {
  it('are the pinned ones, in name order', async () => {
    await loadFeatureStrings();
    const commands = [...(await loadCommandModules()).values()]
      .map((command) => command.data.toJSON())
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    const json = JSON.stringify(commands);
    expect(json.length).toBeGreaterThan(10_000);
    expect(createHash('sha256').update(json).digest('hex')).toBe(PINNED);
  });
});
