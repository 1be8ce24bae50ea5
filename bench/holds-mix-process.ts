// Figure 17's measurement of a design SayBot does not use (BENCH_HOLDS_MP3_PROCESS, bench/holds.ts): a scene's MP3 mix
// in a process of its own, which the bench starts detached (a session, so an autogroup, of its own) and which first
// makes its autogroup nicer by the value it is given. It reads its parts from files and writes the MP3 to a file, so
// the bench's main thread does no work in proportion to the audio. Arguments: niceness, output file, part files.
import { readFileSync, writeFileSync } from 'node:fs';
import { mixScene } from '../src/core/audio/effects/scene-mix.ts';

const [niceness, output, ...files] = process.argv.slice(2);
if (niceness === undefined || output === undefined) throw new Error('usage: niceness output part...');
// An autogroup is a session's: made nicer from a shell's session, it would slow the shell and everything started there.
const stat = readFileSync('/proc/self/stat', 'utf8');
const session = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3];
if (session !== String(process.pid)) throw new Error('run only detached, as the leader of a session of its own');
writeFileSync('/proc/self/autogroup', niceness);
const lines = files.map((file) => ({ parts: [new Uint8Array(readFileSync(file))], gapBefore: 0.4 }));
writeFileSync(output, (await mixScene({ lines, format: 'mp3' })).data);
