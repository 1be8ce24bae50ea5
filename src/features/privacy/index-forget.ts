// What `npm run forget` needs of privacy: its arguments and the one deletion path, without the bot's side of it.
import './strings.ts';
export { forgetGuild, forgetMember, type ForgetReport } from './forget.ts';
export { FORGET_USAGE, parseForgetArgs } from './forget-args.ts';
