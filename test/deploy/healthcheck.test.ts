// The image's HEALTHCHECK, run as Docker runs it (the Dockerfile's exec-form command, in the image's working
// directory, with the container's METRICS_PORT) against SayBot's real /healthz server.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Metrics } from '../../src/core/metrics/metrics.ts';
import { startMetricsServer, type Health, type MetricsServer } from '../../src/core/metrics/server.ts';
import { closedPort } from '../core/api/helpers.ts';
import { runChild } from '../support/run-child.ts';
import { healthcheckCommand } from './image-checks.ts';
import { dockerfileStages } from './image-files.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function runHealthcheck(metricsPort: string): Promise<{ code: number | null; stdout: string }> {
  const [command, ...args] = healthcheckCommand(dockerfileStages()) ?? [];
  if (command === undefined) throw new Error('the Dockerfile has no exec-form HEALTHCHECK');
  const run = await runChild(command === 'node' ? process.execPath : command, args, {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', METRICS_PORT: metricsPort },
    killAfterMs: 15_000,
  });
  return { code: run.code, stdout: run.stdout };
}

describe("the image's HEALTHCHECK", () => {
  let server: MetricsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const serve = async (health: Health) => {
    server = await startMetricsServer({ metrics: new Metrics(), health: async () => health, port: 0 });
    return new URL(server.url).port;
  };

  it('is healthy once /healthz answers 200 (gateway ready, store ok)', async () => {
    const port = await serve({ gateway: 'ready', store: 'ok' });
    const result = await runHealthcheck(port);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('200 {"ok":true');
  });

  it('is unhealthy while the gateway connects or the store fails, and says which in its output', async () => {
    const connecting = await runHealthcheck(await serve({ gateway: 'connecting', store: 'ok' }));
    expect(connecting.code).toBe(1);
    expect(connecting.stdout).toContain('"gateway":"connecting"');
    await server?.close();
    const failing = await runHealthcheck(await serve({ gateway: 'ready', store: 'failing' }));
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('"store":"failing"');
  });

  it('is unhealthy when nothing answers on METRICS_PORT', async () => {
    const port = await closedPort();
    const result = await runHealthcheck(String(port));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`no answer from 127.0.0.1:${port}/healthz`);
  });

  it('reports healthy when the owner turned the metrics off (METRICS_PORT empty): nothing to ask', async () => {
    expect((await runHealthcheck('')).code).toBe(0);
  });
});
