// What the bot's player logged of each clip it was through (its debug line "clip finished"), from the bot's log.

export interface FinishedClip {
  /** The clip's label: `<command>:<request id>#<part>`. */
  label: string;
  status: string;
  /** Audio sent to Discord. */
  seconds: number;
}

/** Every clip the player finished, in order. */
export function finishedClips(logs: string): FinishedClip[] {
  return logs
    .split('\n')
    .filter((line) => line.includes('"clip finished"'))
    .map((line) => JSON.parse(line) as FinishedClip);
}
