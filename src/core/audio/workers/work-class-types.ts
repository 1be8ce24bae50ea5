// The work classes' names (./work-classes.ts says what each holds): types only, for the pools, their threads and
// their trace without importing the pools.

/** Short work waits only for short work; long work runs in slices at a lower priority and gives way to short. */
export type WorkClass = 'short' | 'long';
