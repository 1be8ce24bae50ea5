// A free line whose audio proves longer than its estimate: let through the 120 s cap's margin, then cut at the cap.
// Symbols are short to write and long to say: eSpeak NG names each ("percent", "at"), which the estimate, a
// character's time each, does not foresee (measured in free-ko-f: 50 of these groups, estimated at 20 s, said in
// 101 s; these 70 are estimated at 28 s). Numbers did this once; the estimate now reads a digit as its number's
// words (src/core/free-voice/free-voice-engine.ts).
export const CUT_FREE_LINE = '%&@#. '.repeat(70).trim();
