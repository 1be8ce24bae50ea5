// The command definitions SayBot registers with Discord, pinned: what `npm start` compares and deploys, every
// command with its options, choices, ranges and localisations. A refactor leaves them byte for byte as they were;
// an intended change updates the digest here, in the commit that makes it.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadCommandModules } from '../../src/app/command-modules.ts';
import { loadFeatureStrings } from '../../src/app/feature-strings.ts';

// Changed from 7a3fa4da… when /scene was added (every other command's JSON unchanged).
const PINNED = '96c2c0662fa906acc9af83d959faccac300d99b0a6d4f6ffa51078376a2c5bfb';

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
