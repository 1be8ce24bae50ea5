// The command definitions SayBot registers with Discord, pinned: what `npm start` compares and deploys, every
// command with its options, choices, ranges and localisations. A refactor leaves them byte for byte as they were;
// an intended change updates the digest here, in the commit that makes it.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadCommandModules } from '../../src/app/command-modules.ts';
import { loadFeatureStrings } from '../../src/app/feature-strings.ts';

// Changed from 96c2c066… when /dictionary's word, reading and pattern took the dictionary's own max_length (50, 100,
// 200: MAX_*_LENGTH, no longer twice them); every other command's JSON unchanged.
const PINNED = '31301b85cbfcb324ffff899e631ffddeaafce82730d6bff42ba8d15156ca516f';

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
