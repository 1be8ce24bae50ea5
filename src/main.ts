import { loadDotenv } from './dotenv.ts';
import { VoiceApiClient } from './api/index.ts';
import { SayBot } from './bot/app.ts';
import { configSecrets, describeDatabase, loadConfig, type Config } from './config.ts';
import { createLogger, type Logger } from './log.ts';
import { Metrics } from './metrics/metrics.ts';
import { startMetricsServer, type MetricsServer } from './metrics/server.ts';
import { startSandbox, type Sandbox } from './sandbox/index.ts';
import { openStore } from './store/index.ts';

export interface RunningSayBot {
  bot: SayBot;
  config: Config;
  logger: Logger;
  stop(): Promise<void>;
}

/**
 * Wires the bot from the environment: config, logger, the shared Voice API client (or an in-process sandbox
 * when no Voice API is configured), then Discord. Throws ConfigError before anything starts.
 */
export async function startSayBot(env: NodeJS.ProcessEnv, options: { logDestination?: NodeJS.WritableStream } = {}): Promise<RunningSayBot> {
  loadDotenv(env);
  const config = loadConfig(env);
  const logger = createLogger({
    level: config.logLevel,
    secrets: configSecrets(config),
    ...(options.logDestination === undefined ? {} : { destination: options.logDestination }),
  });

  // Crashes in one guild's work must not take every guild down: log, and keep serving.
  const onRejection = (reason: unknown) => logger.error({ err: reason }, 'unhandled promise rejection');
  process.on('unhandledRejection', onRejection);

  let sandbox: Sandbox | undefined;
  let api = config.voiceApi;
  if (api === undefined) {
    sandbox = await startSandbox();
    api = { baseUrl: sandbox.url, apiKey: sandbox.testKey };
    logger.warn({ url: sandbox.url }, 'VOICE_API_BASE_URL and VOICE_API_KEY are not set: using the built-in sandbox (test tones, not real speech)');
  }
  const voiceApi = new VoiceApiClient({ ...api, logger, timeouts: { totalMs: config.voiceApiTimeoutMs } });

  let bot: SayBot;
  let metricsServer: MetricsServer | undefined;
  let started: SayBot | undefined;
  try {
    // Opening migrates the schema; a file from a newer SayBot stops start-up here with a plain message.
    const store = await openStore(config.database);
    logger.info({ database: describeDatabase(config.database) }, 'store open');
    if (config.metricsPort !== undefined) {
      // Served from before the gateway connects, so a health check sees 'connecting' rather than nothing.
      metricsServer = await startMetricsServer({
        metrics: new Metrics(),
        port: config.metricsPort,
        health: async () => ({
          gateway: started?.client.isReady() ? 'ready' : 'connecting',
          store: await store.getQuotaState().then(() => 'ok' as const, () => 'failing' as const),
        }),
      });
      logger.info({ url: metricsServer.url }, 'metrics and health served');
    }
    bot = await SayBot.start({ config, logger, voiceApi, store });
    started = bot;
  } catch (error) {
    await metricsServer?.close();
    await voiceApi.close();
    await sandbox?.close();
    process.off('unhandledRejection', onRejection);
    throw error;
  }
  return {
    bot,
    config,
    logger,
    async stop() {
      await metricsServer?.close();
      await bot.stop();
      await voiceApi.close();
      await sandbox?.close();
      process.off('unhandledRejection', onRejection);
      logger.info('stopped');
    },
  };
}
