// The driver's side of the servers process: forks bench/servers.ts and calls it, one typed request at a time
// or many in flight.
import { fork, type ChildProcess } from 'node:child_process';
import type { Calls, DaveSetting, NetworkDelays, Op, ReplyMessage, RequestMessage, ServersInfo } from './protocol.ts';

interface Waiter {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export class Servers {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, Waiter>();
  #nextId = 0;
  #info: ServersInfo | undefined;

  private constructor(child: ChildProcess) {
    this.#child = child;
    child.on('message', (raw: unknown) => {
      const message = raw as ReplyMessage;
      const waiter = this.#pending.get(message.id);
      if (!waiter) return;
      this.#pending.delete(message.id);
      if (message.ok) waiter.resolve(message.result);
      else waiter.reject(new Error(`servers: ${message.error}`));
    });
    child.on('exit', (code) => {
      for (const waiter of this.#pending.values()) waiter.reject(new Error(`servers process exited (${code})`));
      this.#pending.clear();
    });
  }

  /**
   * Forks the servers process and starts a fake Discord with `guilds` benchmark guilds, and a sandbox. `ownSession`:
   * the process detached, in a session (so a CPU autogroup) of its own, as Discord is another machine: Linux shares the
   * CPU between sessions first, and in the bench's session the receive thread that stamps arrivals would share the
   * bot's share with the bot's own long work (figure 24). There its UDP receive thread also stamps first, where the
   * host allows it (bench/servers.ts `stampsFirst`), so that the burners standing for other jobs on SayBot's host do
   * not delay the stamps of the machine that stands for Discord.
   */
  static async start(
    guilds: number,
    dave?: DaveSetting,
    delays?: NetworkDelays,
    floodMembers?: number,
    ownSession = false,
    seats?: { channels: number; helpers: number },
  ): Promise<Servers> {
    // Advanced serialisation keeps numbers exact and lets arrays of arrival times cross cheaply.
    const child = fork(new URL('./servers.ts', import.meta.url), ownSession ? ['--stamps-first'] : [], {
      serialization: 'advanced',
      stdio: 'inherit',
      detached: ownSession,
    });
    const servers = new Servers(child);
    servers.#info = await servers.call('start', {
      guilds,
      ...(dave ? { dave } : {}),
      ...(delays ? { delays } : {}),
      ...(floodMembers ? { floodMembers } : {}),
      ...(seats ? { seats } : {}),
    });
    return servers;
  }

  get info(): ServersInfo {
    if (!this.#info) throw new Error('servers not started');
    return this.#info;
  }

  call<K extends Op>(op: K, params: Calls[K]['params']): Promise<Calls[K]['result']> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve: (v) => resolve(v as Calls[K]['result']), reject });
      const message: RequestMessage<K> = { id, op, params };
      this.#child.send(message);
    });
  }

  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => {
      if (this.#child.exitCode !== null) resolve();
      else this.#child.once('exit', () => resolve());
    });
    await this.call('close', {}).catch(() => undefined);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000).unref())]);
    if (this.#child.exitCode === null) this.#child.kill();
  }
}
