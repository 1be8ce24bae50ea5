// A /say whose request to the Voice API cannot open its connection in time (the relay before the sandbox holds its
// connects: test/support/held-relay.ts): nothing of it left, so it is sent again, and told as not reached if it never
// opens, never as slow; nothing shown as spent. Opened on the resend, it is served and paid once. Found by an outside
// check (edges1): the member read "took too long to answer" and the request was never sent again.
import diagnostics from 'node:diagnostics_channel';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { booksSettled } from '../support/books-settled.ts';
import { spentShown } from '../support/books-shown.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { heldRelay, type HeldRelay } from '../support/held-relay.ts';
import { oneRoomGuild } from '../support/world.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { countCharacters } from '../../src/core/characters.ts';

const GUILD = '200000000000000093';
const SPEAKER = '300000000000000931';
let relay: HeldRelay | undefined;
afterAll(() => relay?.close());
afterEach(() => relay?.letGo());

const h = useFileHarness(async () => {
  relay = await heldRelay();
  return {
    guilds: [
      oneRoomGuild(GUILD, 'Far service', { text: '210000000000000093', voice: '220000000000000093' }, [
        { id: SPEAKER, username: 'speaker', locale: 'en-US' },
      ]),
    ],
    env: { VOICE_API_BASE_URL: `http://127.0.0.1:${relay.port}` },
    // Past a dropped handshake's first retransmission (1 s): a connect begun as the relay lets go opens.
    clientTimeouts: { connectMs: 1_500 },
  };
});

/** Connects to the relay that timed out, and what each one runs. */
let timedOut = 0;
let onTimeout = (): void => undefined;
const onConnectError = (message: unknown) => {
  const { connectParams, error } = message as { connectParams: { port: string }; error: { code?: string } };
  if (Number(connectParams.port) !== relay?.port || error.code !== 'UND_ERR_CONNECT_TIMEOUT') return;
  timedOut += 1;
  onTimeout();
};
diagnostics.subscribe('undici:client:connectError', onConnectError);
afterAll(() => diagnostics.unsubscribe('undici:client:connectError', onConnectError));

async function sayAsFile(text: string) {
  relay?.pointAt(Number(new URL(h.sandbox.url).port));
  await relay?.hold();
  timedOut = 0;
  const spentBefore = await spentShown(h, GUILD, SPEAKER);
  const billedBefore = h.sandbox.charactersBilled();
  const { content } = await runCommand(h, {
    guildId: GUILD,
    userId: SPEAKER,
    name: 'say',
    options: { text, output: 'file' },
  });
  await booksSettled(h);
  return {
    content,
    billed: h.sandbox.charactersBilled() - billedBefore,
    shown: (await spentShown(h, GUILD, SPEAKER)) - spentBefore,
  };
}

describe('a /say whose connection to the Voice API does not open in time', () => {
  it('never opening: sent again, then told the service could not be reached; nothing billed or shown as spent', async () => {
    onTimeout = () => undefined;
    const { content, billed, shown } = await sayAsFile('Nobody answers the door.');
    expect(content).toBe(t('en-US', 'error.api.connection'));
    expect(timedOut).toBe(3);
    expect([billed, shown]).toEqual([0, 0]);
  });

  it('opening on the resend: served, paid once, shown once', async () => {
    const text = 'The door opens at last.';
    onTimeout = () => void relay?.letGo();
    const { content, billed, shown } = await sayAsFile(text);
    expect(content).toMatch(/^Here is/);
    expect(timedOut).toBe(1);
    expect([billed, shown]).toEqual([countCharacters(text), countCharacters(text)]);
  });
});
