import { config } from 'dotenv';

/**
 * Reads `.env` (or the file DOTENV_CONFIG_PATH names) into `env`, never overriding what the environment
 * already sets. Quiet: dotenv's own banner would be an unstructured log line.
 */
export function loadDotenv(env: NodeJS.ProcessEnv = process.env): void {
  config({ quiet: true, path: env['DOTENV_CONFIG_PATH'] ?? '.env', processEnv: env });
}
