// The player feature's public surface: what its command modules (commands/), the app and other features use.
import './strings.ts';
export { nothingToStop, playerControl, playerHere, requireMayLeave, skippable, stoppable } from './player-control.ts';
export { engineCredits } from './engine-credits.ts';
