import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.ts';

/** What /healthz reports; `ok` false answers 503 so a load balancer or orchestrator can act on it. */
export interface Health {
  gateway: 'ready' | 'connecting' | 'down';
  store: 'ok' | 'failing';
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** Serves /metrics and /healthz on `port` (METRICS_PORT), on 127.0.0.1 by default: for the operator's scraper. */
export async function startMetricsServer(options: {
  metrics: Metrics;
  health: () => Promise<Health>;
  port: number;
  host?: string;
}): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const route = req.method === 'GET' ? req.url?.split('?')[0] : undefined;
    const answer = async () => {
      if (route === '/metrics') {
        const body = await options.metrics.registry.metrics();
        res.writeHead(200, { 'content-type': options.metrics.registry.contentType }).end(body);
      } else if (route === '/healthz') {
        const health = await options.health();
        const ok = health.gateway === 'ready' && health.store === 'ok';
        res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ ok, ...health }));
      } else {
        res.writeHead(404).end();
      }
    };
    answer().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
