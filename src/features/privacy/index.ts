// Privacy's public surface: deleting what SayBot keeps of a member, a server or a cloned voice.
import './strings.ts';
export { deleteClonedVoice, forgetGuild, forgetMember, type ForgetReport, type Forgetting } from './forget.ts';
export { RemovedGuilds } from './removed-guilds.ts';
export { ForgetNotices } from './forget-notices.ts';
export { CONFIRMATION_TTL_MS, ServerDeletionConfirmations } from './confirmations.ts';
export { traceLines } from './trace-lines.ts';
