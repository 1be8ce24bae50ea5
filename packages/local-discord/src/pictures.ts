// Server icons and avatars as Discord's CDN serves them (https://cdn.discordapp.com/icons/{guild}/{hash}.png,
// /avatars/{user}/{hash}.png, /embed/avatars/{n}.png): a guild or member given `icon: true` / `avatar: true` gets a
// hash of its ID, and the CDN route draws a small PNG of its own from it (a colour and a pattern), so a website shows
// real pictures from the local Discord. Unknown hashes are 404, as on Discord.
import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/** The picture hash Discord would give `id`'s icon or avatar here (32 hex digits, like Discord's). */
export const pictureHash = (kind: 'icon' | 'avatar', id: string): string =>
  createHash('sha256').update(`${kind}:${id}`).digest('hex').slice(0, 32);

/** `?size=` as Discord takes it (16 to 4096); here drawn from 16 to 256, 128 when absent or not a number. */
function sizeOf(query: URLSearchParams): number {
  const asked = Math.trunc(Number(query.get('size') ?? 128));
  return Number.isFinite(asked) && asked >= 16 ? Math.min(asked, 256) : 128;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A size x size RGB PNG: a background of the hash's colour, a lighter disc and band drawn from its next digits. */
export function drawPicture(hash: string, size: number): Buffer {
  const byte = (i: number) => parseInt(hash.slice(i * 2, i * 2 + 2), 16) || 0;
  const base = [byte(0) % 160, byte(1) % 160, byte(2) % 160];
  const light = base.map((c) => Math.min(255, c + 90));
  const cx = size * (0.3 + (byte(3) % 40) / 100);
  const cy = size * (0.3 + (byte(4) % 40) / 100);
  const r = size * (0.18 + (byte(5) % 15) / 100);
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const inDisc = (x - cx) ** 2 + (y - cy) ** 2 < r * r;
      const inBand = Math.abs(x + y - size * (0.9 + (byte(6) % 30) / 100)) < size * 0.08;
      const colour = inDisc || inBand ? light : base;
      row.set(colour, 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The picture at a CDN path, or undefined when the path is not a picture's (404 when its hash is not the one given
 * here): /icons/{guild}/{hash}.{png,webp,jpg}, /avatars/{user}/{hash}.{…}, /guilds/{g}/users/{user}/avatars/{hash}.{…},
 * /embed/avatars/{0-5}.png.
 */
export function pictureAt(pathname: string, query: URLSearchParams): { status: 200 | 404; png?: Buffer } | undefined {
  const embedded = /^\/embed\/avatars\/([0-5])\.png$/.exec(pathname);
  if (embedded) return { status: 200, png: drawPicture(pictureHash('avatar', `embed-${embedded[1]}`), sizeOf(query)) };
  const match =
    /^\/(icons|avatars)\/(\d+)\/([0-9a-f]{32})\.(?:png|webp|jpg|jpeg)$/.exec(pathname) ??
    /^\/guilds\/\d+\/users\/(\d+)\/(avatars)\/([0-9a-f]{32})\.(?:png|webp|jpg|jpeg)$/
      .exec(pathname)
      ?.map((part, index, all) => (index === 1 ? 'avatars' : index === 2 ? all[1] : part));
  if (!match) return undefined;
  const [, kind, id = '', hash = ''] = match;
  const expected = pictureHash(kind === 'icons' ? 'icon' : 'avatar', id);
  return hash === expected ? { status: 200, png: drawPicture(hash, sizeOf(query)) } : { status: 404 };
}
