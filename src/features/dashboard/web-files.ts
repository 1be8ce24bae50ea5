// The dashboard's stylesheets and browser scripts, kept in ./web/ as the files they are (checked by the formatter and
// lint like any other; a committed bundle is made by scripts/build-web.ts), served under /static/: read once, on the
// first request, with a gzip copy made off the main thread (zlib's pool), and sent compressed to a browser that
// accepts it. A bundle with its library is some 290 KB as text and under 100 KB gzipped. The folder is found from this
// module's own URL, so it is wherever src/ is: the Docker image and a production-only install carry it with the code.
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
