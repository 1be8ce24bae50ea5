// The Docker image's HEALTHCHECK: asks this container's SayBot for /healthz (served on 127.0.0.1:METRICS_PORT,
// src/core/metrics/server.ts) and exits 0 when it answers 200 (gateway ready, store ok), 1 otherwise. Node's own
// fetch, as the slim base image has no curl. With SHARDS, shard 0 answers (each shard serves METRICS_PORT + its ID).
// METRICS_PORT set empty turns the metrics off, and with nothing to ask this check reports healthy rather than
// marking every such container unhealthy.
const ANSWER_WITHIN_MS = 4_000;

const port = process.env['METRICS_PORT']?.trim() ?? '';
if (port === '') process.exit(0);

try {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
  const body = await response.text();
  // Docker keeps the check's output with its result (`docker inspect`): the JSON says which part is not ready.
  process.stdout.write(`${response.status} ${body.slice(0, 200)}\n`);
  process.exit(response.status === 200 ? 0 : 1);
} catch (error) {
  process.stdout.write(
    `no answer from 127.0.0.1:${port}/healthz: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
