import { describe, expect, it } from 'vitest';
import { heapFlags } from '../../../src/app/shard/heap-flags.ts';

describe('heapFlags', () => {
  it("passes on the parent's V8 heap sizes and nothing else", () => {
    expect(
      heapFlags([
        '--inspect=9229',
        '--max-semi-space-size=16',
        '--expose-gc',
        '--max-old-space-size=512',
        '--max-semi-space-size',
      ]),
    ).toEqual(['--max-semi-space-size=16', '--max-old-space-size=512']);
    expect(heapFlags([])).toEqual([]);
  });
});
