// The screenshots made smaller: a PNG as Chromium writes it (8-bit RGB or RGBA, no interlace) written again as an
// 8-bit palette PNG, compressed with node's zlib at its best level. A page's flat colours are kept exactly; when the
// picture has more than 256 colours (text's anti-aliasing, Discord's pictures), the 256 most used colours (counted on
// 5 bits a channel, each the mean of what it stands for) are its palette and every other colour takes its nearest.
// What it weighs less is printed by the screenshot script. No dependency: node:zlib and this file.
import { deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The PNG's pixels as RGB triples, or undefined for a PNG this does not rewrite (then it is kept as it is). */
function decode(png: Buffer): { width: number; height: number; rgb: Uint8Array } | undefined {
  if (!png.subarray(0, 8).equals(SIGNATURE)) return undefined;
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6)) return undefined;
      channels = colour === 2 ? 3 : 4;
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    const row = y * (stride + 1) + 1;
    for (let x = 0; x < stride; x += 1) {
      const a = x >= channels ? (pixels[y * stride + x - channels] as number) : 0;
      const b = y > 0 ? (pixels[(y - 1) * stride + x] as number) : 0;
      const c = x >= channels && y > 0 ? (pixels[(y - 1) * stride + x - channels] as number) : 0;
      let predicted = 0;
      if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[y * stride + x] = ((raw[row + x] as number) + predicted) & 0xff;
    }
  }
  // Opaque as a page is: the alpha channel (all 255 in a screenshot) is dropped.
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i += 1)
    for (let k = 0; k < 3; k += 1) rgb[i * 3 + k] = pixels[i * channels + k] as number;
  return { width, height, rgb };
}

/** At most 256 colours standing for the picture's: its own when it has no more, else the most used (see above). */
function palette(rgb: Uint8Array): number[] {
  const counts = new Map<number, number>();
  for (let i = 0; i < rgb.length; i += 3) {
    const colour = ((rgb[i] as number) << 16) | ((rgb[i + 1] as number) << 8) | (rgb[i + 2] as number);
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  if (counts.size <= 256) return [...counts.keys()];
  const buckets = new Map<number, { n: number; r: number; g: number; b: number }>();
  for (const [colour, n] of counts) {
    const [r, g, b] = [colour >> 16, (colour >> 8) & 0xff, colour & 0xff];
    const key = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
    const bucket = buckets.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
    bucket.n += n;
    bucket.r += r * n;
    bucket.g += g * n;
    bucket.b += b * n;
    buckets.set(key, bucket);
  }
  return [...buckets.values()]
    .sort((x, y) => y.n - x.n)
    .slice(0, 256)
    .map(({ n, r, g, b }) => (Math.round(r / n) << 16) | (Math.round(g / n) << 8) | Math.round(b / n));
}

/** The PNG again as a palette PNG, or as it was when that is not smaller (or not a PNG this reads). */
export function paletteSized(png: Buffer): Buffer {
  const image = decode(png);
  if (image === undefined) return png;
  const { width, height, rgb } = image;
  const colours = palette(rgb);
  const nearest = new Map<number, number>();
  const indexOf = (colour: number): number => {
    const known = nearest.get(colour);
    if (known !== undefined) return known;
    const [r, g, b] = [colour >> 16, (colour >> 8) & 0xff, colour & 0xff];
    let best = 0;
    let bestDistance = Infinity;
    colours.forEach((candidate, i) => {
      const dr = (candidate >> 16) - r;
      const dg = ((candidate >> 8) & 0xff) - g;
      const db = (candidate & 0xff) - b;
      // Weighted as the eye weighs them: green most, blue least.
      const distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
      if (distance < bestDistance) [best, bestDistance] = [i, distance];
    });
    nearest.set(colour, best);
    return best;
  };
  // Each row unfiltered (filter 0) but for "up" where the row above is the same: a page's flat areas then vanish.
  const raw = Buffer.alloc((width + 1) * height);
  let previous: Buffer | undefined;
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(width);
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      row[x] = indexOf(((rgb[i] as number) << 16) | ((rgb[i + 1] as number) << 8) | (rgb[i + 2] as number));
    }
    const start = y * (width + 1);
    if (previous !== undefined && row.equals(previous)) raw[start] = 2;
    else row.copy(raw, start + 1);
    previous = row;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 3, 0, 0, 0], 8);
  const plte = Buffer.alloc(colours.length * 3);
  colours.forEach((colour, i) => plte.set([colour >> 16, (colour >> 8) & 0xff, colour & 0xff], i * 3));
  const out = Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', plte),
    chunk('IDAT', deflateSync(raw, { level: 9, memLevel: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return out.length < png.length ? out : png;
}
