import { config } from 'dotenv';

/** Reads `.env` (or DOTENV_CONFIG_PATH) into `env`, never overriding it; quiet (dotenv's banner is unstructured). */
export function loadDotenv(env: NodeJS.ProcessEnv = process.env): void {
  config({ quiet: true, path: env['DOTENV_CONFIG_PATH'] ?? '.env', processEnv: env });
}
