// What one take of figure 28 (bench/voice-move.ts) came to: the line's audio heard against its expected length, and
// the seconds the reply told against what was heard.

/** One Opus frame, one RTP packet. */
const FRAME_SECONDS = 0.02;

export interface MoveTake {
  /** Audio frames heard beyond the line's expected length: said twice when positive, lost when negative. */
  extraFrames: number;
  /** The seconds the reply told minus those heard; NaN when it told none (it did not say "Spoke"). */
  toldOverHeard: number;
}

/** `heardPackets`: the line's audio packets the channel heard; `reply`: the /say's final reply, in English. */
export function moveTake(heardPackets: number, expectedSeconds: number, reply: string): MoveTake {
  const told = /^Spoke (\d+\.\d) s/.exec(reply)?.[1];
  return {
    extraFrames: heardPackets - Math.round(expectedSeconds / FRAME_SECONDS),
    toldOverHeard: told === undefined ? Number.NaN : Number(told) - heardPackets * FRAME_SECONDS,
  };
}
