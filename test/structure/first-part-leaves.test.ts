// When an order's first part leaves for voice is decided in src/core/order/pipeline.ts `#playInVoice` alone (issue 96):
// at once with nothing ahead (beside the join), else once the order before plays its last clip, one that would go out
// as the month's probe only at its turn, none once the order ended. The player's Turn tells where the order is (ahead,
// near, its end) and fetches nothing. Likewise when a clip's first packet goes is src/core/voice/sender/worker-clip.ts'.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './import-graph.ts';

const codeOf = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '');
const where = (pattern: RegExp) =>
  sourceFiles(['src', 'commands']).filter((file) => new RegExp(pattern).test(codeOf(file)));

describe("when an order's first part leaves", () => {
  it('is decided where the order plays: the player neither fetches nor asks the month', () => {
    expect(codeOf('src/core/voice/guild-player.ts')).not.toMatch(/findsOut|fetch/i);
    expect(where(/\.findsOut\(/)).toEqual(['src/core/order/pipeline.ts']);
    expect(where(/\bturn\.near\b/)).toEqual(['src/core/order/pipeline.ts']);
  });
});

describe("when a clip's first packet goes", () => {
  it('is decided in worker-clip.ts alone: the start lead and the stall are written and read nowhere else in src', () => {
    expect(where(/\bSTART_(?:LEAD_PACKETS|WAIT_MS)\b/)).toEqual(['src/core/voice/sender/worker-clip.ts']);
  });
});
