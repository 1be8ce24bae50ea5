// Turns between the work classes (./job-thread.ts workClassOf), over every pool in the process: long work gives way to
// short work. A long job starts, and goes on after each of its slices (./slices.ts), only once the short jobs that were
// waiting or under way at that moment have ended; short work arriving later waits for the next slice. So short work
// takes its turn between every two slices of a long job, each server's short jobs in turn as their own queues serve
// them, and a long job is never starved by a flood: it waits for one round of short work at a time, which the short
// pools' bounds keep small.

/** Short work waits only for short work; long work runs in slices at a lower priority and gives way to short. */
export type WorkClass = 'short' | 'long';

/** Short jobs waiting or under way, by number in order of arrival. */
const shortJobs = new Set<number>();
let lastShort = 0;
/** Long work waiting for its turn: go once every short job up to `through` has ended. */
const waiting: Array<{ through: number; go: () => void }> = [];

/** A short job arrived: it counts until `done()` (its reply, refusal or failure). */
export function shortWorkBegins(): () => void {
  const number = (lastShort += 1);
  shortJobs.add(number);
  return () => {
    if (!shortJobs.delete(number)) return;
    for (let i = waiting.length - 1; i >= 0; i--) {
      const turn = waiting[i];
      if (turn && !hasShortThrough(turn.through)) {
        waiting.splice(i, 1);
        turn.go();
      }
    }
  };
}

function hasShortThrough(through: number): boolean {
  for (const number of shortJobs) if (number <= through) return true;
  return false;
}

/** Long work's turn: resolves once the short jobs present now have ended (at once when there are none). */
export function longWorkTurn(): Promise<void> {
  const through = lastShort;
  if (!hasShortThrough(through)) return Promise.resolve();
  return new Promise((go) => waiting.push({ through, go }));
}
