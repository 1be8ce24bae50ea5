// Messages between render-png.ts (main thread) and its worker (render-png-worker.ts): one chart, one reply.

export interface ChartJob {
  id: number;
  svg: string;
}

export type ChartJobReply = { id: number; ok: true; png: ArrayBuffer } | { id: number; ok: false; message: string };
