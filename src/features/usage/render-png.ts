// The /usage chart drawn as PNG off the main thread, as long work (src/core/audio/workers/work-classes.ts): loading
// the fonts and drawing take a tenth of a second or more, which on the event loop would be a gap in every guild's
// audio. Its own thread and queue, so a chart never waits behind audio work nor audio behind it; fair between
// servers (servers in turn, each server's share) and rationed per member, free as it is.
import { JobUnavailableError } from '../../core/audio/errors.ts';
import { ThreadPool } from '../../core/audio/workers/thread-pool.ts';
import type { ChartJob, ChartJobReply } from './render-png-protocol.ts';

export { chartFontFamily } from './chart-fonts.ts';

/** Charts waiting behind the one being drawn, over every server. */
export const MAX_WAITING_CHARTS = 8;
/** Charts one server may have under way or waiting. */
export const MAX_CHARTS_PER_GUILD = 2;
/** Charts one member may have under way or waiting. */
export const MAX_CHARTS_PER_MEMBER = 1;
/** A chart (the fonts loaded and a month drawn) takes well under a second; past this its thread is replaced. */
const JOB_TIMEOUT_MS = 20_000;
/** An idle thread is ended after this, its fonts' memory given back. */
const IDLE_MS = 60_000;

/** A chart could not be drawn now: too many waiting (of this server or member), too slow, or its thread failed. */
export class ChartBusyError extends JobUnavailableError {}

const pool = new ThreadPool<Omit<ChartJob, 'id'>, ChartJobReply>({
  name: 'chart drawing',
  jobs: 'charts',
  worker: new URL('./render-png-worker.ts', import.meta.url),
  threads: 1,
  maxWaitingPerThread: MAX_WAITING_CHARTS,
  timeoutMs: JOB_TIMEOUT_MS,
  idleMs: IDLE_MS,
  perOwner: MAX_CHARTS_PER_GUILD,
  perMember: MAX_CHARTS_PER_MEMBER,
  unavailable: (reason, message, options) => new ChartBusyError(reason, message, options),
});

/**
 * Renders an SVG document to PNG bytes at its own size, in the chart's worker thread, for `guild`'s share and
 * `member`'s ration ('' when none). Rejects with ChartBusyError when it cannot run now.
 */
export async function renderPng(svg: string, { guild = '', member = '' } = {}): Promise<Buffer> {
  const reply = await pool.run({ svg }, [], guild, { member });
  if (!reply.ok) throw new Error(`chart drawing: ${reply.message}`);
  return Buffer.from(reply.png);
}
