// `npm run forget -- --user ID | --guild ID`: the operator's deletion, by /privacy's code; exit 2 on bad arguments.
import { AudioCache } from '../core/cache/audio-cache.ts';
import { ConfigError, configSecrets, describeDatabase, loadConfig } from '../core/config.ts';
import { loadDotenv } from '../core/dotenv.ts';
import { redactSecrets, silentLogger } from '../core/log.ts';
import {
  FORGET_USAGE,
  forgetGuild,
  forgetMember,
  parseForgetArgs,
  type ForgetReport,
} from '../features/privacy/index-forget.ts';
import { openStore } from '../app/store.ts';

const describeReport = (report: ForgetReport): string =>
  `${report.deleted} rows deleted, ${report.anonymised} rows anonymised (spends kept for the totals), ` +
  `${report.voices.length} cloned voices deleted${report.voices.length === 0 ? '' : ` (${report.voices.map((v) => v.name).join(', ')})`}.`;

const target = parseForgetArgs(process.argv.slice(2));
if ('problem' in target) {
  console.error(`forget: ${target.problem}\n${FORGET_USAGE}`);
  process.exit(2);
}

loadDotenv();
let secrets: string[] = [];
try {
  const config = loadConfig();
  secrets = configSecrets(config);
  const store = await openStore(config.database);
  try {
    const cache = await AudioCache.open({ ...config.cache, logger: silentLogger });
    const deps = { store, purgeVoice: (voiceId: string) => cache.purgeVoice(voiceId) };
    const where = `in ${describeDatabase(config.database)}`;
    if (target.userId === undefined) {
      const report = await forgetGuild(deps, target.guildId);
      await store.forgetNotices.add({ guildId: target.guildId });
      console.log(`Forgot server ${target.guildId} ${where}: ${describeReport(report)}`);
    } else {
      // The operator's erasure: the managers' records about the member (an ignore) go too.
      const report = await forgetMember(deps, target.userId, target.guildId, 'operator');
      // Running bots read this within seconds and drop what they hold of the member in memory.
      await store.forgetNotices.add({ userId: target.userId, guildId: target.guildId });
      const scope = target.guildId === undefined ? 'in every server' : `in server ${target.guildId}`;
      console.log(`Forgot member ${target.userId} ${scope} ${where}: ${describeReport(report)}`);
    }
  } finally {
    await store.close();
  }
} catch (error) {
  const message =
    error instanceof ConfigError
      ? error.message
      : `forget failed: ${error instanceof Error ? error.message : String(error)}`;
  console.error(redactSecrets(message, secrets));
  process.exitCode = 1;
}
