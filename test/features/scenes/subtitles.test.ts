import { describe, expect, it } from 'vitest';
import { toSrt, type SubtitleCue } from '../../../src/features/scenes/subtitles.ts';
import { parseSrtTimes } from '../../support/srt-times.ts';

describe('toSrt', () => {
  it('numbers cues from 1 with SubRip times, one Speaker: text line and a blank line between cues, LF only', () => {
    const srt = toSrt([
      { start: 0, end: 1.25, speaker: 'Alice', text: 'Hello there.' },
      { start: 1.6, end: 3, speaker: 'Bob', text: 'Hi!' },
    ]);
    expect(srt).toBe(
      '1\n00:00:00,000 --> 00:00:01,250\nAlice: Hello there.\n\n2\n00:00:01,600 --> 00:00:03,000\nBob: Hi!\n',
    );
    expect(srt).not.toContain('\r');
  });

  it('writes hours, minutes, seconds and milliseconds: 3661.5 s is 01:01:01,500', () => {
    expect(toSrt([{ start: 3661.5, end: 3662, speaker: 'A', text: 'x' }])).toContain('01:01:01,500 --> 01:01:02,000');
  });

  it('writes more than two digits of hours when a time needs them', () => {
    expect(toSrt([{ start: 360_000, end: 360_001, speaker: 'A', text: 'x' }])).toContain('100:00:00,000');
  });

  it('rounds times to the millisecond', () => {
    expect(toSrt([{ start: 0.0004, end: 1.2345, speaker: 'A', text: 'x' }])).toContain('00:00:00,000 --> 00:00:01,235');
    expect(toSrt([{ start: 59.9996, end: 60, speaker: 'A', text: 'x' }])).toContain('00:01:00,000 --> 00:01:00,000');
  });

  it('moves an end before its start to the start, and a time below 0 to 0', () => {
    expect(toSrt([{ start: 2, end: 1, speaker: 'A', text: 'x' }])).toContain('00:00:02,000 --> 00:00:02,000');
    expect(toSrt([{ start: -1, end: 0.5, speaker: 'A', text: 'x' }])).toContain('00:00:00,000 --> 00:00:00,500');
  });

  it('refuses a time that is not a finite number', () => {
    expect(() => toSrt([{ start: Number.NaN, end: 1, speaker: 'A', text: 'x' }])).toThrow(RangeError);
    expect(() => toSrt([{ start: 0, end: Infinity, speaker: 'A', text: 'x' }])).toThrow(RangeError);
  });

  it('turns line breaks inside a text or a name into spaces and escapes nothing else', () => {
    const srt = toSrt([{ start: 0, end: 1, speaker: 'A\nB', text: 'one\r\ntwo\nthree <i>&amp;</i> --> 4' }]);
    expect(srt.split('\n')[2]).toBe('A B: one two three <i>&amp;</i> --> 4');
    expect(srt.split('\n')).toHaveLength(4);
  });

  it('keeps a long text whole on one line', () => {
    const text = 'word '.repeat(40).trim();
    expect(toSrt([{ start: 0, end: 1, speaker: 'A', text }]).split('\n')[2]).toBe(`A: ${text}`);
  });

  it('gives an empty file for no cues', () => {
    expect(toSrt([])).toBe('');
  });
});

describe('parseSrtTimes', () => {
  it('reads back what toSrt wrote: times to the millisecond and speakers, in order', () => {
    const cues: SubtitleCue[] = [
      { start: 0, end: 1.2345, speaker: 'Alice', text: 'at 10:30: go' },
      { start: 1.585, end: 3661.5, speaker: '민수', text: '안녕' },
      { start: 3661.5, end: 3661.5, speaker: "Dr. O'Neil", text: 'x' },
    ];
    expect(parseSrtTimes(toSrt(cues))).toEqual([
      { start: 0, end: 1.235, speaker: 'Alice' },
      { start: 1.585, end: 3661.5, speaker: '민수' },
      { start: 3661.5, end: 3661.5, speaker: "Dr. O'Neil" },
    ]);
  });

  it('reads CRLF, a BOM and a dot before the milliseconds', () => {
    const srt =
      '\ufeff1\r\n00:00:01.500 --> 00:00:02,000\r\nBob: hi\r\n\r\n2\r\n00:01:00,000 --> 00:01:01,000\r\nno name\r\n';
    expect(parseSrtTimes(srt)).toEqual([
      { start: 1.5, end: 2, speaker: 'Bob' },
      { start: 60, end: 61, speaker: '' },
    ]);
  });

  it('finds nothing in text with no time lines', () => {
    expect(parseSrtTimes('')).toEqual([]);
    expect(parseSrtTimes('1\nAlice: hello\n')).toEqual([]);
  });
});
