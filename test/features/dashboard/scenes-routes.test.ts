// The Scenes page's kept files (scenes-routes.ts' SceneFiles): each for the member who made it in that server only,
// at most 16 at once (the oldest goes first), and gone after ten minutes.
import { describe, expect, it } from 'vitest';
import { SceneFiles } from '../../../src/features/dashboard/scenes-routes.ts';

const ANN = { userId: '1', guildId: 'a' };

describe('SceneFiles', () => {
  it('gives a file to its member in its server only', () => {
    const files = new SceneFiles(() => 0);
    const id = files.keep(ANN, Buffer.from('wav'), 'saybot-scene.wav');
    expect(files.get(id, '1', 'a')?.name).toBe('saybot-scene.wav');
    expect(files.get(id, '2', 'a')).toBeUndefined();
    expect(files.get(id, '1', 'b')).toBeUndefined();
  });

  it('keeps at most 16, dropping the oldest first', () => {
    const files = new SceneFiles(() => 0);
    const ids = Array.from({ length: 17 }, (_, i) => files.keep(ANN, Buffer.from([i]), `f${i}`));
    expect(files.get(ids[0] ?? '', '1', 'a')).toBeUndefined();
    expect(files.get(ids[1] ?? '', '1', 'a')?.name).toBe('f1');
    expect(files.get(ids[16] ?? '', '1', 'a')?.name).toBe('f16');
  });

  it('forgets a file after ten minutes', () => {
    let now = 0;
    const files = new SceneFiles(() => now);
    const id = files.keep(ANN, Buffer.from('srt'), 'saybot-scene.srt');
    now = 9 * 60_000;
    expect(files.get(id, '1', 'a')).toBeDefined();
    now = 10 * 60_000;
    expect(files.get(id, '1', 'a')).toBeUndefined();
  });
});
