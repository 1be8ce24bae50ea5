// The /usage chart drawn as PNG off the main thread, where a tenth of a second would gap every guild's audio: its own
// thread and queue, fair between servers and rationed per member.
import { JobUnavailableError } from '../../core/audio/errors.ts';
import { ThreadPool, type ThreadPoolOptions } from '../../core/audio/workers/job-thread.ts';
import type { ChartJob, ChartJobReply } from './render-png-protocol.ts';

export { chartFontFamily } from './chart-fonts.ts';

/** Charts waiting behind the one being drawn, over every server. */
export const MAX_WAITING_CHARTS = 8;
/** Charts one server may have under way or waiting. */
export const MAX_CHARTS_PER_GUILD = 2;
/** Charts one member may have under way or waiting. */
export const MAX_CHARTS_PER_MEMBER = 1;
/** A chart's CPU time past which its thread is replaced (its low-priority wait is CHART_WALL_CEILING_MS's). */
const JOB_TIMEOUT_MS = 20_000;
/** A chart's bound in time from its start, however little of a core a busy host leaves it. */
export const CHART_WALL_CEILING_MS = 2 * 60_000;
/** An idle thread is ended after this, its fonts' memory given back. */
const IDLE_MS = 60_000;

/** A chart could not be drawn now: too many waiting (of this server or member), too slow, or its thread failed. */
export class ChartBusyError extends JobUnavailableError {}

/** The chart pool's options: long work, whose limit counts its own CPU time under a wall-clock ceiling. */
export const CHART_POOL: ThreadPoolOptions = {
  name: 'chart drawing',
  jobs: 'charts',
  worker: new URL('./render-png-worker.ts', import.meta.url),
  threads: 1,
  maxWaitingPerThread: MAX_WAITING_CHARTS,
  timeoutMs: JOB_TIMEOUT_MS,
  idleMs: IDLE_MS,
  perOwner: MAX_CHARTS_PER_GUILD,
  perMember: MAX_CHARTS_PER_MEMBER,
  workClass: 'long',
  wallCeilingMs: CHART_WALL_CEILING_MS,
  unavailable: (reason, message, options) => new ChartBusyError(reason, message, options),
};

const pool = new ThreadPool<Omit<ChartJob, 'id'>, ChartJobReply>(CHART_POOL);

/** An SVG rendered to PNG in the chart's thread, in `guild`'s share and `member`'s ration; ChartBusyError when full. */
export async function renderPng(svg: string, { guild = '', member = '' } = {}): Promise<Buffer> {
  const reply = await pool.run({ svg }, [], guild, { member });
  if (!reply.ok) throw new Error(`chart drawing: ${reply.message}`);
  return Buffer.from(reply.png);
}
