// Figure 24's scene (bench/pace.ts): the largest script SayBot's scene feature accepts, in the free voice, as a member
// would attach it to /scene new.
import { countCharacters } from '../src/core/characters.ts';
import { SCENE_CAPS } from '../src/features/scenes/script.ts';

/**
 * The largest scene a member may make in the free voice: SCENE_CAPS.lines turns in two free voices, exactly
 * SCENE_CAPS.characters spoken characters between them, and SCENE_CAPS.pauseTotalSeconds of pauses (the longest each).
 * `lines` fewer for a quick run. Its own words (`tag`) in every line, so that no line comes from the cache.
 */
export function largestFreeScript(tag: string, lines = SCENE_CAPS.lines): string {
  const characters = Math.floor((SCENE_CAPS.characters * lines) / SCENE_CAPS.lines);
  const pauses = Math.floor(SCENE_CAPS.pauseTotalSeconds / SCENE_CAPS.pauseSeconds);
  const filler = 'and the story goes on while the other server speaks in its own voice channel ';
  const out = ['cast: Ann = free-en-f, Ben = free-en-m'];
  let left = characters;
  for (let i = 0; i < lines; i++) {
    const length = Math.floor(left / (lines - i));
    left -= length;
    const head = `Take ${tag}, line ${i + 1}, `;
    const text = `${(head + filler.repeat(3)).slice(0, length - 1).trimEnd()}.`.padEnd(length, '.');
    if (countCharacters(text) !== length) throw new Error(`line ${i + 1}: ${countCharacters(text)} characters`);
    out.push(`${i % 2 === 0 ? 'Ann' : 'Ben'}: ${text}`);
    // Spread between the turns, none after the last.
    const step = Math.ceil(lines / pauses);
    if (
      i < lines - 1 &&
      (i + 1) % step === Math.floor(step / 2) &&
      out.filter((l) => l.startsWith('[pause')).length < pauses
    )
      out.push(`[pause ${SCENE_CAPS.pauseSeconds}s]`);
  }
  return out.join('\n');
}
