// What the figures were measured on: they mean little without it.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
}

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    const model = line?.split(':')[1]?.trim();
    if (model) return model;
  } catch {
    // Not Linux: os.cpus() below.
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

export function machine(): Machine {
  return {
    cpu: cpuModel(),
    cores: os.availableParallelism(),
    memoryGiB: os.totalmem() / 1024 ** 3,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}
