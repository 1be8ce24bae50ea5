// Discord is another machine. Run under a slow-host wrapper (a CPU cgroup with a quota, named slow-host-<pid>,
// standing for a slower host; every process the bench starts inherits it), the servers process (the fake Discord that
// stamps each packet's arrival, the sandbox) leaves that group for its parent: else the group's quota would hold
// Discord's receive thread too, and a packet sent on time would be stamped late whenever the slowed host ran out of
// its share.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The name slow-host.sh gives its group. */
const SLOW_HOST_GROUP = /^slow-host-\d+$/;

/** Where each of this process's cgroups is mounted, from /proc/self/cgroup (v1: one line a hierarchy; v2: `0::`). */
function groups(): Array<{ mount: string; at: string }> {
  return readFileSync('/proc/self/cgroup', 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .flatMap((line) => {
      const [, controllers = '', at = ''] = line.split(':');
      if (controllers === '') return [{ mount: '/sys/fs/cgroup', at }];
      return controllers
        .split(',')
        .filter((controller) => controller === 'cpu' || controller === 'cpuacct')
        .map((controller) => ({ mount: `/sys/fs/cgroup/${controllers.includes(',') ? controllers : controller}`, at }));
    });
}

/**
 * Moves this process out of a slow-host group into that group's parent; returns what it did, for one line of the
 * servers' output (undefined when not in such a group).
 */
export function leaveSlowHost(): string | undefined {
  let found: string | undefined;
  try {
    for (const { mount, at } of groups()) {
      if (!SLOW_HOST_GROUP.test(path.basename(at))) continue;
      found = path.basename(at);
      writeFileSync(path.join(mount, path.dirname(at), 'cgroup.procs'), String(process.pid));
    }
  } catch (error) {
    return `could not leave ${found ?? 'the slowed group'} (${(error as Error).message}): Discord's stamps share the slowed host's CPU`;
  }
  return found === undefined ? undefined : `left ${found}: Discord, another machine, is not slowed with SayBot`;
}
