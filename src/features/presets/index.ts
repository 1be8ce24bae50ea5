// The presets feature's public surface: what its command modules (commands/), the app and other features use.
import './strings.ts';
export { MAX_PRESETS_PER_GUILD } from './preset-limits.ts';
