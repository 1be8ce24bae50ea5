// /stop of a file or a voice message while one of its paid requests waits at the service, not yet charged (issue 56):
// SayBot closes it, as it does in voice (stop-held.test.ts), so the service (which bills at its answer) bills nothing
// for it; nothing after it is asked for and nothing is posted; the books keep what was written ahead (it may have been
// charged an instant before the close: the documented over-count, never under); the member is told what was charged
// (the parts before) and that the part closed may have been counted, never "nothing was charged".
import { describe, expect, it } from 'vitest';
import { countCharacters } from '../../src/core/characters.ts';
import { splitText } from '../../src/core/sourcing/part-request.ts';
import { booksSettled } from '../support/books-settled.ts';
import { spentShown as spentShownTo, until } from '../support/books-shown.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { defaultGuilds, runCommand, type Harness } from '../support/harness.ts';
import { ALICE } from '../support/world.ts';

const [, london] = defaultGuilds() as [unknown, ReturnType<typeof defaultGuilds>[0]];
const GUILD = london.id;
const MAX_CHARS = 60;

const harnessFor = useHarnessPerTest();
const tts = (h: Harness) => h.sandbox.requests.filter((r) => r.endpoint === 'tts');

const spentShown = (h: Harness) => spentShownTo(h, GUILD, ALICE);

const CASES = [
  { output: 'file', held: 2 },
  { output: 'file', held: 1 },
  { output: 'voice-message', held: 2 },
] as const;

describe('/stop of a file or voice message while its paid request waits at the service, uncharged', () => {
  for (const { output, held: heldPart } of CASES) {
    it(`${output}, part ${heldPart} held: closed, billed nothing for it, nothing posted, the words say what was charged`, async () => {
      const h = await harnessFor({ config: { maxCharsPerRequest: MAX_CHARS } });
      const text = `This ${output} stops at part ${heldPart}, its first. The second sentence is right here, as asked. The third one ends it, never asked for.`;
      const parts = splitText(text, MAX_CHARS);
      expect(parts.length).toBe(3);
      // The parts before the held one are answered as usual (a fault that changes nothing takes their turn).
      for (let i = 1; i < heldPart; i++)
        h.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 0, endpoint: 'tts' });
      h.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'tts' });
      const said = await h.discord.command({
        guildId: GUILD,
        userId: ALICE,
        name: 'say',
        options: [
          { name: 'text', value: text },
          { name: 'output', value: output },
        ],
      });
      await until(() => tts(h)[heldPart - 1]?.outcome === 'waiting');
      const held = tts(h)[heldPart - 1];
      const stopped = await runCommand(h, { guildId: GUILD, userId: ALICE, name: 'stop' });
      expect(stopped.content).toMatch(/^Stopped/);
      const answer = await said.waitFor((r) => (r.content ?? '').startsWith('Stopped'), 60_000);
      // SayBot closed the connection while the request waited, before the service charged it.
      await until(() => held?.outcome === 'client-aborted');
      h.sandbox.resumePaused();
      await booksSettled(h);
      const before = parts.slice(0, heldPart - 1).reduce((sum, part) => sum + countCharacters(part), 0);
      const closed = countCharacters(held?.text ?? '');
      expect(held?.charactersBilled).toBe(0);
      expect(h.sandbox.charactersBilled()).toBe(before);
      // Nothing after the held part was asked for, and nothing was posted.
      expect(tts(h)).toHaveLength(heldPart);
      expect(said.responses.flatMap((r) => r.files)).toEqual([]);
      // The books keep what was written ahead: above what the service billed by the closed request's characters.
      expect(await spentShown(h)).toBe(before + closed);
      // The member is told what was charged and that the part closed may have been counted; never "nothing charged".
      expect(answer.content).not.toMatch(/nothing (of it )?(was )?(spent|charged)|not charged/i);
      if (before > 0) expect(answer.content).toContain(`${before} characters`);
      expect(answer.content).toContain(`${closed} characters`);
      expect(answer.content).toMatch(/may have counted/);
    });
  }
});
