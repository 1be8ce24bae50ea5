// An order played in a voice channel: the channel joined while the first part is requested, every part queued on the
// guild's player after the orders accepted before it (its lane), each later part requested once the one before it is
// heard (never while that one may still be refused) and played only if that one played to its end, and the parts'
// results as one outcome.
import type { Logger } from '../log.ts';
import type { GuildPlayer, PlaybackResult, PlaybackStatus } from '../voice/guild-player.ts';
import { partClip, type PartBefore, type PartClip, type PartCheck } from './clips.ts';
import type { PartSource } from '../sourcing/part-source.ts';
import type { Order } from './order.ts';
import type { Lane, VoicePlace } from './order-types.ts';
import { estimateRequestSeconds } from '../quota/seconds-bounds.ts';
import { RightsRevokedError } from './revocation.ts';
import { sceneClip, type SceneClip, type SceneCut } from './scene-clip.ts';
import type { RightsWatch } from './rights-asker.ts';
import type { SpeechOutcome } from './speech-order.ts';

/** What playing needs of the pipeline. */
export interface PlaybackNeeds {
  source: PartSource;
  log: Logger;
  /** Each guild's lane (orders accepted, not yet queued), shared with acceptance. */
  lanes: Map<string, Lane>;
  /** The pipeline's one check before each part is fetched and before it plays. */
  allowed: PartCheck;
  /** Called when the first frame goes out. */
  firstFrame: () => void;
  /** Ends what plays the moment a right is taken away (rights-asker.ts). */
  rights: RightsWatch;
  /** Whether SayBot still serves the guild (ALLOWED_GUILDS); absent: every guild. */
  serves: ((guildId: string) => boolean) | undefined;
}

/**
 * Joins the channel and requests the first part side by side (a first join's handshake and the service's first
 * byte overlap instead of adding up; the player still sends no frame before DAVE is ready), then queues every
 * part; each later part's request starts as the part before it starts playing (its first frame out), and none
 * starts once a part before it did not play to its end. The player holds the order until then (`held`): a /stop,
 * /skip or /leave meanwhile ends it at once, the join aside, and nothing of it is asked for after that but the first
 * part already under way (read to its end and paid, as any part sent).
 */
export async function playInVoice(
  on: PlaybackNeeds,
  order: Order,
  voiceChannelId: string,
  playback: VoicePlace,
): Promise<SpeechOutcome> {
  const { requester } = order;
  const { player, lane, held } = playback;
  let inLane = true;
  /** Its clips no longer count as ahead of later orders: queued (they count as the player's), failed or ended. */
  const leaveLane = (count: number) => {
    if (!inLane) return;
    inLane = false;
    lane.clips -= count;
    if (lane.clips === 0 && on.lanes.get(requester.guildId) === lane) on.lanes.delete(requester.guildId);
  };
  // Ended while it was accepted: nothing asked for, no join.
  const endedEarly = held.endedAs;
  if (endedEarly !== undefined) {
    leaveLane(order.scene ? 1 : order.lines.reduce((sum, line) => sum + line.texts.length, 0));
    return { kind: endedEarly, seconds: 0 };
  }
  const label = `${requester.command}:${requester.id}`;
  // A plain order's parts are clips of their own, each asked for ahead only once the one before it is heard and
  // opened only if that one played to its end (clips.ts partClip); a scene's are asked for one ahead inside its clip.
  const ends: Array<PromiseWithResolvers<PlaybackStatus>> = [];
  const heard: Array<PromiseWithResolvers<void>> = [];
  const before = (): PartBefore | undefined => {
    const ended = ends.at(-1)?.promise;
    const first = heard.at(-1)?.promise;
    ends.push(Promise.withResolvers());
    heard.push(Promise.withResolvers());
    return order.scene || ended === undefined || first === undefined ? undefined : { heard: first, ended };
  };
  const parts = order.lines.map((line, lineIndex) =>
    line.texts.map((text, index) =>
      partClip(
        on.source,
        line.request,
        text,
        `${label}#${order.scene ? `${lineIndex + 1}.` : ''}${index + 1}`,
        order,
        on.log,
        on.allowed,
        before(),
      ),
    ),
  );
  // A scene is one clip: its lines in turn, each after its pause, so /skip and the queue see it whole.
  const scene: SceneClip | undefined = order.scene
    ? sceneClip(
        label,
        order.lines.map((line, index) => ({
          pauseBefore: line.pauseBefore,
          parts: parts[index] ?? [],
          estimates: line.texts.map((text) => estimateRequestSeconds(line.request, text)),
        })),
      )
    : undefined;
  const clips: PartClip[] = scene ? [scene] : parts.flat();
  for (const [index, clip] of clips.entries()) {
    clip.requestedBy = { userId: requester.userId, requesterMayStop: requester.policy.requesterMayStop };
    clip.started = () => {
      if (index === 0) on.firstFrame();
      heard[index]?.resolve();
    };
  }
  const first = clips[0];
  // Behind others, its audio waits for its turn like any clip's; with nothing ahead it is wanted now.
  if (order.ahead === 0) first?.prepare?.();
  const joined = player.connect(voiceChannelId);
  const queued = Promise.all([lane.tail, joined]).then(() => held.queue(clips));
  lane.tail = queued.then(
    () => undefined,
    () => undefined,
  );
  void lane.tail.then(() => leaveLane(clips.length));
  void held.ended.then(() => leaveLane(clips.length));
  // From here to its outcome, an event that takes a right away ends it at once, not at its next part.
  const unwatch = on.rights.watch({
    guildId: requester.guildId,
    userId: requester.userId,
    check: on.allowed,
    end: (error) => player.end((item) => clips.includes(item), error),
  });
  try {
    let results: Array<Promise<PlaybackResult>> | 'stopped' | 'skipped' | undefined;
    try {
      results = await Promise.race([queued, held.ended]);
    } catch (error) {
      held.release();
      for (const clip of clips) clip.dispose?.();
      throw error;
    }
    if (!Array.isArray(results)) {
      // Ended while held (a /stop, /skip or /leave while SayBot joined): its first part's request, if under way, is
      // let go like any dropped part's.
      for (const clip of clips) clip.dispose?.();
      return { kind: results ?? held.endedAs ?? 'stopped', seconds: 0 };
    }
    for (const [index, result] of results.entries()) void result.then((ended) => ends[index]?.resolve(ended.status));
    const outcome = withCut(await played(player, clips, results), scene?.cut());
    // Kicked or the server deleted: discord.js ends the voice connection before it says so, and what was cut off
    // there is the server no longer served, not a lost connection to rejoin.
    if (outcome.kind === 'cut-off' && on.serves?.(requester.guildId) === false)
      return {
        kind: 'failed',
        error: new RightsRevokedError({ code: 'not-served' }),
        secondsHeard: outcome.seconds,
      };
    return outcome;
  } finally {
    unwatch();
  }
}

/** A scene cut at its cap in voice: played all the same, the cut said with it. */
function withCut(outcome: SpeechOutcome, cut: SceneCut | undefined): SpeechOutcome {
  if (cut === undefined || outcome.kind !== 'played') return outcome;
  return { ...outcome, cutAt: cut.at, linesBeforeCut: cut.lines };
}

/**
 * The parts' results as one outcome: a skip ends the whole reply, and parts after a failed one would make no sense
 * alone.
 */
async function played(
  player: GuildPlayer,
  clips: readonly PartClip[],
  results: ReadonlyArray<Promise<PlaybackResult>>,
): Promise<SpeechOutcome> {
  let seconds = 0;
  for (const pending of results) {
    const result = await pending;
    seconds += result.seconds;
    if (result.status === 'failed') {
      player.dropQueued(clips);
      return { kind: 'failed', error: result.error, secondsHeard: seconds };
    }
    if (result.status !== 'played') {
      player.dropQueued(clips);
      return { kind: result.status, seconds };
    }
  }
  return { kind: 'played', seconds };
}
