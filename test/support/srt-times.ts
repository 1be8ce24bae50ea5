// A test's reading of a SubRip file SayBot wrote (src/features/scenes/subtitles.ts): its cues' times and speakers.
const LINE_BREAKS = /\r\n|\r|\n/g;
/** `00:00:01,500 --> 00:00:03,250`; a `.` before the milliseconds is read too, as some editors write it. */
const TIMES = /^(\d+):(\d{2}):(\d{2})[,.](\d{3}) --> (\d+):(\d{2}):(\d{2})[,.](\d{3})/;

/** The times and speakers of a SubRip file's cues, LF or CRLF, with or without a BOM. */
export function parseSrtTimes(srt: string): Array<{ start: number; end: number; speaker: string }> {
  const lines = srt.replace(/^\ufeff/, '').split(LINE_BREAKS);
  const cues: Array<{ start: number; end: number; speaker: string }> = [];
  lines.forEach((line, index) => {
    const match = TIMES.exec(line.trim());
    if (match === null) return;
    const [, h1, m1, s1, ms1, h2, m2, s2, ms2] = match.map(Number) as number[];
    const seconds = (h = 0, m = 0, s = 0, ms = 0) => (h * 3_600_000 + m * 60_000 + s * 1000 + ms) / 1000;
    const text = lines[index + 1] ?? '';
    const colon = text.indexOf(': ');
    cues.push({
      start: seconds(h1, m1, s1, ms1),
      end: seconds(h2, m2, s2, ms2),
      speaker: colon === -1 ? '' : text.slice(0, colon),
    });
  });
  return cues;
}
