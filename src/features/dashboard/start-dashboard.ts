// Serves the dashboard in SayBot's own process (@hono/node-server over node:http), and sweeps expired sessions.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createDashboardApp } from './dashboard-app.ts';
import type { DashboardDeps } from './dashboard-types.ts';
import { DEFAULT_LIMITS } from './limits.ts';

/** How often expired sessions are deleted from the store. */
const SWEEP_MS = 10 * 60_000;

export interface RunningDashboard {
  /** Where it listens (the port actually bound: 0 in settings picks a free one). */
  listening: string;
  close(): Promise<void>;
}

export async function startDashboard(deps: DashboardDeps): Promise<RunningDashboard> {
  const app = createDashboardApp(deps);
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const now = deps.now ?? Date.now;
  const server = await new Promise<ServerType>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port: deps.settings.port, hostname: deps.settings.host }, () =>
      resolve(started),
    );
    started.once('error', reject);
  });
  // Bounded in time as in size: a slow client holds a socket 30 s at most.
  if ('requestTimeout' in server) {
    server.requestTimeout = 30_000;
    server.headersTimeout = 10_000;
  }
  const lifetimes = { idleMs: limits.sessionIdleMs, absoluteMs: limits.sessionAbsoluteMs };
  const sweep = setInterval(() => {
    deps.store.dashboardSessions
      .sweep(now(), lifetimes)
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'dashboard sessions were not swept'));
  }, SWEEP_MS).unref();
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  deps.logger.info({ url: deps.settings.url, listening: `${host}:${address.port}` }, 'dashboard served');
  return {
    listening: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweep);
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
