// Request bodies as Discord accepts them: JSON, or multipart/form-data with payload_json and files[N].
import type { FakeFile } from './types.ts';

export interface UploadedFile extends FakeFile {
  /** N of the files[N] part; payload_json's attachments refer to it by id. */
  index: number;
}

export interface ParsedBody {
  json: unknown;
  files: UploadedFile[];
}

export class BodyError extends Error {}

export async function parseBody(contentType: string | undefined, raw: Buffer): Promise<ParsedBody> {
  if (raw.length === 0) return { json: undefined, files: [] };
  const type = contentType?.toLowerCase() ?? '';
  if (type.startsWith('multipart/form-data')) return parseMultipart(contentType ?? '', raw);
  try {
    return { json: JSON.parse(raw.toString('utf8')) as unknown, files: [] };
  } catch {
    throw new BodyError('The request body contains invalid JSON.');
  }
}

async function parseMultipart(contentType: string, raw: Buffer): Promise<ParsedBody> {
  let form: FormData;
  try {
    form = await new Request('http://fake-discord.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: raw,
    }).formData();
  } catch {
    throw new BodyError('The multipart body could not be parsed.');
  }
  let json: unknown;
  const files: UploadedFile[] = [];
  for (const [key, value] of form.entries()) {
    if (key === 'payload_json' && typeof value === 'string') {
      try {
        json = JSON.parse(value) as unknown;
      } catch {
        throw new BodyError('payload_json contains invalid JSON.');
      }
      continue;
    }
    if (typeof value === 'string') continue;
    const index = /^files\[(\d+)\]$/.exec(key)?.[1];
    files.push({
      index: index === undefined ? files.length : Number(index),
      name: value.name,
      ...(value.type ? { contentType: value.type } : {}),
      data: Buffer.from(await value.arrayBuffer()),
    });
  }
  files.sort((a, b) => a.index - b.index);
  return { json, files };
}
