import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** How a slash command ended, as the operator counts them. */
type CommandResult = 'ok' | 'refused' | 'failed';

/** Live figures read at scrape time (voice connections, queues, cache), so nothing has to push them. */
interface MetricsSources {
  activeVoiceConnections?: () => number;
  queueLengths?: () => number;
  cacheSizeBytes?: () => number;
  /** Each bot's seats, by bot (0 the main bot, then the helpers in HELPER_BOT_TOKENS' order): connections, clips waiting. */
  seats?: () => ReadonlyArray<{ connections: number; queued: number }>;
}

/** The `bot` label: a seat's bot by its index (0 the main bot, 1 to 10 the helpers), never a token; at most 11 values. */
const botLabel = (index: number) => String(index);

/** The operator's metrics as one injected object with its own registry, so two bots in one process never mix. */
export class Metrics {
  readonly registry = new Registry();
  readonly #commands: Counter<'command' | 'result'>;
  readonly #apiRequests: Counter<'endpoint' | 'status'>;
  readonly #apiLatency: Histogram<'endpoint'>;
  readonly #characters: Counter<'kind'>;
  readonly #firstAudio: Histogram;
  readonly #firstAudioByBot: Histogram<'bot'>;
  readonly #cacheLookups: Counter<'result'>;

  constructor(sources: MetricsSources = {}) {
    const registers = [this.registry];
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Counter<L>({ name, help, labelNames, registers });
    const histogram = <L extends string>(name: string, help: string, labelNames: L[], buckets: number[]) =>
      new Histogram<L>({ name, help, labelNames, registers, buckets });
    this.#commands = counter('saybot_commands_total', 'Slash commands by name and result', ['command', 'result']);
    this.#apiRequests = counter(
      'saybot_voice_api_requests_total',
      'Voice API requests by endpoint and HTTP status (0: no answer)',
      ['endpoint', 'status'],
    );
    this.#apiLatency = histogram(
      'saybot_voice_api_request_seconds',
      'Voice API request time until the response headers',
      ['endpoint'],
      [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 120],
    );
    this.#characters = counter(
      'saybot_characters_total',
      'Characters spent (sent to the service) and saved (served from the cache)',
      ['kind'],
    );
    this.#firstAudio = histogram(
      'saybot_time_to_first_audio_seconds',
      'From a /say to its first audio packet sent',
      [],
      [0.1, 0.25, 0.5, 1, 2, 4, 8, 16],
    );
    this.#firstAudioByBot = histogram(
      'saybot_time_to_first_audio_by_bot_seconds',
      'From a /say to its first audio packet sent, by the bot that spoke (0: the main bot, then the helpers)',
      ['bot'],
      [0.1, 0.25, 0.5, 1, 2, 4, 8, 16],
    );
    this.#cacheLookups = counter('saybot_cache_lookups_total', 'Audio cache lookups by result', ['result']);
    const gauge = (name: string, help: string, read: (() => number) | undefined) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read?.() ?? 0);
        },
      });
    gauge('saybot_voice_connections', 'Voice connections open now', sources.activeVoiceConnections);
    gauge('saybot_queue_length', 'Requests waiting in every guild queue', sources.queueLengths);
    gauge('saybot_cache_size_bytes', 'Bytes in the audio cache', sources.cacheSizeBytes);
    const byBot = (name: string, help: string, read: (seat: { connections: number; queued: number }) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['bot'],
        registers,
        collect() {
          this.reset();
          sources.seats?.().forEach((seat, index) => this.set({ bot: botLabel(index) }, read(seat)));
        },
      });
    byBot('saybot_voice_connections_by_bot', 'Voice connections open now, by bot', (seat) => seat.connections);
    byBot('saybot_queue_length_by_bot', 'Clips waiting now in every queue of a bot, by bot', (seat) => seat.queued);
    // Event-loop lag (nodejs_eventloop_lag_*), memory, CPU: prom-client's defaults, into this registry only.
    collectDefaultMetrics({ register: this.registry });
  }

  command(command: string, result: CommandResult): void {
    this.#commands.inc({ command, result });
  }

  voiceApiRequest(endpoint: string, status: number, seconds: number): void {
    this.#apiRequests.inc({ endpoint, status: String(status) });
    this.#apiLatency.observe({ endpoint }, seconds);
  }

  characters(kind: 'spent' | 'saved', count: number): void {
    if (count > 0) this.#characters.inc({ kind }, count);
  }

  /** `bot`: the seat's bot (0 the main bot); none for a speech not played in voice. */
  timeToFirstAudio(seconds: number, bot?: number): void {
    this.#firstAudio.observe(seconds);
    if (bot !== undefined) this.#firstAudioByBot.observe({ bot: botLabel(bot) }, seconds);
  }

  cacheLookup(result: 'hit' | 'miss'): void {
    this.#cacheLookups.inc({ result });
  }
}
