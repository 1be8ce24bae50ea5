// The dashboard's files kept in ./web/ as files (a page's stylesheet, a committed bundle: scripts/build-web.ts), served
// under /static/: read once, on the first request, with a gzip copy made off the main thread (zlib's pool), and sent
// compressed to a browser that accepts it. A bundle with its library is some 290 KB as text and under 100 KB gzipped.
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Context } from 'hono';

const gzipped = promisify(gzip);

/** A handler that serves ./web/`name` with `type` (Cache-Control as the dashboard's other static files). */
export function webFile(name: string, type: string): (c: Context) => Promise<Response> {
  let loaded: Promise<{ plain: Uint8Array<ArrayBuffer>; packed: Uint8Array<ArrayBuffer> }> | undefined;
  const load = async () => {
    const plain = new Uint8Array(await readFile(new URL(`./web/${name}`, import.meta.url)));
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
