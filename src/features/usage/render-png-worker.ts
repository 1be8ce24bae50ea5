// The worker thread of render-png.ts: draws one chart at a time (resvg, the shipped fonts loaded here) and moves the
// PNG back, transferred.
import { Resvg } from '@resvg/resvg-js';
import { parentPort } from 'node:worker_threads';
import { yieldToMainThread } from '../../core/audio/workers/thread-priority.ts';
import { chartFontFiles } from './chart-fonts.ts';
import type { ChartJob, ChartJobReply } from './render-png-protocol.ts';

yieldToMainThread();

function draw(job: ChartJob): { reply: ChartJobReply; transfer: ArrayBuffer[] } {
  try {
    const png = new Resvg(job.svg, {
      font: { loadSystemFonts: false, fontFiles: chartFontFiles(), defaultFontFamily: 'Noto Sans KR' },
      background: '#ffffff',
    })
      .render()
      .asPng();
    // resvg's bytes are native memory, which cannot be transferred: copied here, in the worker, into a buffer that can.
    const own = new Uint8Array(png).buffer;
    return { reply: { id: job.id, ok: true, png: own }, transfer: [own] };
  } catch (error) {
    return {
      reply: { id: job.id, ok: false, message: error instanceof Error ? error.message : String(error) },
      transfer: [],
    };
  }
}

parentPort?.on('message', (job: ChartJob) => {
  const { reply, transfer } = draw(job);
  parentPort?.postMessage(reply, transfer);
});
