// Figure 20's flood, sent from the servers process (bench/servers.ts) so that the bot's process does none of the
// flood's own work: members of one guild use four front-ends in turn at a steady rate, /say, the Speak message menu,
// a message in the channel auto-read reads, and the "Play in my voice channel" button under a file reply, each as
// the local Discord sends it (INTERACTION_CREATE or MESSAGE_CREATE on the bot's gateway session); `say-file` (/say
// output:file, a free line made into a file each) only when asked for. What comes back is counted: the first
// response's time, Discord's "did not respond" (no callback within its 3 s), and each last answer by its kind. Another
// guild's member may probe the bot meanwhile with a command answered at once.
import type { FakeDiscord } from '@saybot/local-discord';
import type { InteractionHandle } from '@saybot/local-discord/types.ts';
import type { FloodCounts, FloodFrontEnd, FloodPlan } from './protocol.ts';

export const FLOOD_FRONT_ENDS: readonly FloodFrontEnd[] = ['say', 'speak', 'autoread', 'button'];

/** A message ID of Discord's shape whose timestamp is now (auto-read drops messages older than it reads). */
function snowflakeNow(sequence: number): string {
  return (((BigInt(Date.now()) - 1_420_070_400_000n) << 22n) | BigInt(sequence & 0xfff)).toString();
}

/** The first words of an answer, its member-specific numbers blurred, to count answers of one kind together. */
function kindOf(content: string): string {
  return content
    .replace(/\d+/g, '#')
    .replace(/<[^>]*>/g, '<…>')
    .slice(0, 60);
}

export async function flood(discord: FakeDiscord, plan: FloodPlan): Promise<FloodCounts> {
  const counts: FloodCounts = {
    sent: { say: 0, speak: 0, autoread: 0, button: 0, 'say-file': 0 },
    failedToSend: 0,
    didNotRespond: 0,
    responses: 0,
    answers: {},
    firstResponseMs: [],
    elapsedMs: 0,
    probeMs: [],
    probeDidNotRespond: 0,
  };
  const handles: InteractionHandle[] = [];
  const waits: Array<Promise<void>> = [];
  const sends: Array<Promise<void>> = [];
  const watch = (handle: InteractionHandle) => {
    handles.push(handle);
    waits.push(
      handle
        .waitFor(() => true, plan.settleMs)
        .then(
          () => void counts.firstResponseMs.push(performance.now() - handle.dispatchedAtMs),
          () => undefined,
        ),
    );
  };
  const frontEnds = plan.frontEnds ?? FLOOD_FRONT_ENDS;
  const send = (n: number): Promise<void> => {
    const frontEnd = frontEnds[n % frontEnds.length] ?? 'say';
    const member = Math.floor(n / frontEnds.length) % plan.members.length;
    const userId = plan.members[member] ?? '';
    const words = `Flood ${plan.tag} line ${n}, said by member ${member}.`;
    counts.sent[frontEnd] += 1;
    switch (frontEnd) {
      case 'say':
        return discord
          .command({ guildId: plan.guildId, userId, name: 'say', options: [{ name: 'text', value: words }] })
          .then(watch);
      case 'say-file':
        return discord
          .command({
            guildId: plan.guildId,
            userId,
            name: 'say',
            options: [
              { name: 'text', value: words },
              { name: 'output', value: 'file' },
              ...(plan.voice === undefined ? [] : [{ name: 'voice', value: plan.voice }]),
            ],
          })
          .then(watch);
      case 'speak':
        return discord
          .messageCommand({
            guildId: plan.guildId,
            userId,
            name: 'Speak',
            message: {
              author: { id: plan.members[(member + 1) % plan.members.length] ?? userId, username: 'b' },
              content: words,
            },
          })
          .then(watch);
      case 'autoread':
        return discord
          .postMessage({
            id: snowflakeNow(n),
            guildId: plan.guildId,
            channelId: plan.channelId,
            author: { id: userId, username: `flooder-${member}` },
            member: { roles: [] },
            content: words,
          })
          .then(() => undefined);
      case 'button': {
        const button = plan.buttons[member % plan.buttons.length];
        if (!button) return Promise.resolve();
        return discord
          .pressButton({
            guildId: plan.guildId,
            userId: button.userId,
            messageId: button.messageId,
            customId: button.customId,
          })
          .then(watch);
      }
    }
  };
  const start = performance.now();
  const probes = probe(discord, plan, start);
  const total = Math.round(plan.perSecond * plan.seconds);
  for (let n = 0; n < total; n++) {
    // On a schedule from the start, not from the last send: a late turn sends at once and the rate holds.
    const due = start + (n * 1000) / plan.perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sends.push(
      send(n).catch(() => {
        counts.failedToSend += 1;
      }),
    );
  }
  // With nothing to send (the baseline), the window is the probe's alone.
  const end = start + plan.seconds * 1000;
  if (performance.now() < end) await new Promise((resolve) => setTimeout(resolve, end - performance.now()));
  counts.elapsedMs = performance.now() - start;
  const probed = await probes;
  counts.probeMs = probed.answeredMs;
  counts.probeDidNotRespond = probed.didNotRespond;
  await Promise.all(sends);
  await Promise.all(waits);
  const within = plan.wordsWithinMs ?? 0;
  if (within > 0)
    await Promise.all(
      handles.map((handle) =>
        handle.waitFor((r) => r.kind !== 'delete' && (r.content ?? '') !== '', within).catch(() => undefined),
      ),
    );
  for (const handle of handles) {
    if (handle.didNotRespond) counts.didNotRespond += 1;
    counts.responses += handle.responses.length;
    const last = [...handle.responses].reverse().find((r) => r.kind !== 'delete' && (r.content ?? '') !== '');
    const kind = last ? kindOf(last.content ?? '') : '(no words)';
    counts.answers[kind] = (counts.answers[kind] ?? 0) + 1;
  }
  return counts;
}

/** The other guild's member's cheap command every `everyMs` until the window ends: each first response's time. */
async function probe(
  discord: FakeDiscord,
  plan: FloodPlan,
  start: number,
): Promise<{ answeredMs: number[]; didNotRespond: number }> {
  const answeredMs: number[] = [];
  const asked: InteractionHandle[] = [];
  const answers: Array<Promise<unknown>> = [];
  const who = plan.probe;
  if (who === undefined) return { answeredMs, didNotRespond: 0 };
  for (let due = start; due < start + plan.seconds * 1000; due += who.everyMs) {
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const handle = await discord.command({
      guildId: who.guildId,
      userId: who.userId,
      name: 'myvoice',
      options: [{ name: 'show', type: 1, options: [] }],
    });
    asked.push(handle);
    answers.push(
      handle
        .waitFor(() => true, plan.settleMs)
        .then(
          () => answeredMs.push(performance.now() - handle.dispatchedAtMs),
          () => undefined,
        ),
    );
  }
  await Promise.all(answers);
  return { answeredMs, didNotRespond: asked.filter((h) => h.didNotRespond).length };
}
