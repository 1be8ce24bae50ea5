// Files the fake serves over HTTP like Discord's CDN: attachments given to commands and files the bot uploaded.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pictureAt } from './pictures.ts';
import { snowflake } from './snowflake.ts';
import type { FakeAttachment, FakeFile } from './types.ts';
import { keepLast, keepNewest } from './retention.ts';

interface Stored {
  attachment: FakeAttachment;
  data: Buffer;
}

export interface CdnLogEntry {
  method: string;
  path: string;
  headers: Record<string, string>;
  status: number;
}

export class Cdn {
  readonly log: CdnLogEntry[] = [];
  private readonly files = new Map<string, Stored>();
  private baseUrl = '';
  /** Hosted files and log entries kept (FakeDiscordOptions.retain). */
  retain = Infinity;

  setBaseUrl(baseUrl: string): void {
    this.baseUrl = baseUrl;
  }

  host(data: Uint8Array, filename: string, contentType?: string, durationSecs?: number): FakeAttachment {
    const id = snowflake();
    const name = encodeURIComponent(filename);
    const attachment: FakeAttachment = {
      id,
      filename,
      size: data.byteLength,
      url: `${this.baseUrl}/attachments/${id}/${name}`,
      proxy_url: `${this.baseUrl}/media/attachments/${id}/${name}`,
      ...(contentType !== undefined ? { content_type: contentType } : {}),
      ...(durationSecs !== undefined ? { duration_secs: durationSecs } : {}),
    };
    this.files.set(id, { attachment, data: Buffer.from(data) });
    keepNewest(this.files, this.retain);
    return attachment;
  }

  hostFile(file: FakeFile): FakeAttachment {
    return this.host(file.data, file.name, file.contentType);
  }

  get(id: string): FakeAttachment | undefined {
    return this.files.get(id)?.attachment;
  }

  /** Attachment downloads waiting for `hold`'s release, in the order they came; none held when undefined. */
  #held: Array<() => void> | undefined;

  /**
   * From now on attachment downloads wait unanswered (a slow CDN, as long as a test needs) until the returned release
   * is called: then each is answered in the order it came, and later ones at once.
   */
  hold(): () => void {
    const held: Array<() => void> = [];
    this.#held = held;
    return () => {
      if (this.#held === held) this.#held = undefined;
      for (const answer of held.splice(0)) answer();
    };
  }

  /** Attachment downloads `hold` keeps waiting now. */
  get heldCount(): number {
    return this.#held?.length ?? 0;
  }

  /**
   * Answers /attachments/{id}/{name} and /media/attachments/{id}/{name}, and the pictures' paths (pictures.ts:
   * server icons and avatars); false when the path is not the CDN's.
   */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string, headers: Record<string, string>): boolean {
    if (this.#held !== undefined && /^\/(?:media\/)?attachments\//.test(pathname)) {
      this.#held.push(() => this.serve(req, res, pathname, headers));
      return true;
    }
    const picture = pictureAt(pathname, new URL(req.url ?? pathname, 'http://cdn').searchParams);
    if (picture !== undefined) {
      this.log.push({ method: req.method ?? 'GET', path: req.url ?? pathname, headers, status: picture.status });
      keepLast(this.log, this.retain);
      if (picture.png === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      else
        res
          .writeHead(200, {
            'content-type': 'image/png',
            'content-length': String(picture.png.length),
            'cache-control': 'public, max-age=86400',
            // Discord's CDN lets any site show its pictures.
            'access-control-allow-origin': '*',
          })
          .end(req.method === 'HEAD' ? undefined : picture.png);
      return true;
    }
    const match = /^\/(?:media\/)?attachments\/(\d+)\/[^/]+$/.exec(pathname);
    if (!match) return false;
    const stored = this.files.get(match[1] ?? '');
    const method = req.method ?? 'GET';
    const status = !stored ? 404 : method === 'GET' || method === 'HEAD' ? 200 : 405;
    this.log.push({ method, path: req.url ?? pathname, headers, status });
    keepLast(this.log, this.retain);
    if (!stored || status !== 200) {
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 404 ? 'Not Found' : 'Method Not Allowed');
      return true;
    }
    res.writeHead(200, {
      'content-type': stored.attachment.content_type ?? 'application/octet-stream',
      'content-length': String(stored.data.length),
    });
    res.end(method === 'HEAD' ? undefined : stored.data);
    return true;
  }
}
