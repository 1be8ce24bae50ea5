// `npm run sandbox` keeps its test key in a file, so the VOICE_API_KEY line put in SayBot's .env stays valid
// across restarts of the sandbox. The file is created on first use, readable by its owner only.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where the key lives unless SANDBOX_KEY_FILE says otherwise: beside SayBot's other local data. */
export const DEFAULT_KEY_FILE = path.join('data', 'sandbox-key');

export interface KeptKey {
  key: string;
  /** True when this start made the key (and wrote the file). */
  created: boolean;
}

/** The key stored in `file`, or a new random one written there. A file that holds no usable key is replaced. */
export function keptSandboxKey(file: string): KeptKey {
  let stored = '';
  try {
    stored = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (/^\S{8,}$/.test(stored)) return { key: stored, created: false };
  const key = `sandbox_${randomBytes(16).toString('hex')}`;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return { key, created: true };
}
