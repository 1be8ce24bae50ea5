// The worker thread of clip-thread.ts: decodes one clip at a time, at most `maxSeconds` of it, and answers with
// its figures.
import { parentPort } from 'node:worker_threads';
import { analyseClip, ClipError, rmsDbfs } from '../../analysis/clip.ts';
import type { ClipJob, ClipJobReply } from './clip-thread-protocol.ts';
import { yieldToMainThread } from '../thread-priority.ts';

yieldToMainThread();

async function handle(job: ClipJob): Promise<ClipJobReply> {
  try {
    const info = await analyseClip(new Uint8Array(job.data), { maxSeconds: job.maxSeconds });
    const { samples, ...figures } = info;
    return { id: job.id, ok: true, clip: { ...figures, levelDbfs: samples ? rmsDbfs(samples) : undefined } };
  } catch (error) {
    return {
      id: job.id,
      ok: false,
      code: error instanceof ClipError ? error.code : undefined,
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

parentPort?.on('message', (job: ClipJob) => {
  void handle(job).then((reply) => parentPort?.postMessage(reply));
});
