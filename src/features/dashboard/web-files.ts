// The dashboard's stylesheets and scripts (./web/), served under /static/, gzipped off the main thread once.
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Context } from 'hono';

const gzipped = promisify(gzip);

/** The folder, beside this module (a literal, so the image's check of what the start reads sees it). */
const WEB = new URL('./web/', import.meta.url);

/** A handler that serves ./web/`name` with `type`, cached by the browser for an hour. */
export function webFile(name: string, type: string): (c: Context) => Promise<Response> {
  let loaded: Promise<{ plain: Uint8Array<ArrayBuffer>; packed: Uint8Array<ArrayBuffer> }> | undefined;
  const load = async () => {
    const plain = new Uint8Array(await readFile(new URL(name, WEB)));
    return { plain, packed: new Uint8Array(await gzipped(plain, { level: 9 })) };
  };
  return async (c) => {
    loaded ??= load();
    const { plain, packed } = await loaded;
    const headers = { 'Content-Type': type, 'Cache-Control': 'max-age=3600', Vary: 'Accept-Encoding' };
    if (/\bgzip\b/i.test(c.req.header('accept-encoding') ?? ''))
      return c.body(packed, 200, { ...headers, 'Content-Encoding': 'gzip' });
    return c.body(plain, 200, headers);
  };
}
