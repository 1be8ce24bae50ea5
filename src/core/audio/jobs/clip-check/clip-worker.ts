// The worker thread of clip-thread.ts: decodes one clip at a time, at most `maxSeconds` of it, and answers with
// its figures and, for a clip that decoded, its bytes back (transferred, so the main thread copies nothing).
import { parentPort } from 'node:worker_threads';
import { analyseClip, ClipError, rmsDbfs } from '../../analysis/clip.ts';
import type { ClipJob, ClipJobReply } from './clip-thread-protocol.ts';
import { yieldToMainThread } from '../../workers/thread-priority.ts';

yieldToMainThread();

async function handle(job: ClipJob): Promise<ClipJobReply> {
  try {
    const bytes = new Uint8Array(job.data, job.byteOffset, job.byteLength);
    const info = await analyseClip(bytes, { maxSeconds: job.maxSeconds });
    const { samples, ...figures } = info;
    const clip = { ...figures, levelDbfs: samples ? rmsDbfs(samples) : undefined };
    return { id: job.id, ok: true, clip, data: job.data };
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
  void handle(job).then((reply) => parentPort?.postMessage(reply, reply.ok ? [reply.data] : []));
});
