// A slash command's options against the command as the application registered it, as Discord's client and API hold
// them: only declared options, each of its declared type, required ones given, a string within min_length/max_length,
// a number within min_value/max_value, a value among the declared choices, one sub-command chosen where there are
// some. Discord never delivers an interaction that breaks one of these; here the caller gets a DiscordRefusal.
import { DiscordRefusal, asObject, type Json } from './api-error.ts';

const SUB_COMMAND = 1;
const SUB_COMMAND_GROUP = 2;
const STRING = 3;
const INTEGER = 4;
const BOOLEAN = 5;
const NUMBER = 10;
/** User, channel, role, mentionable, attachment: a snowflake as the value. */
const BY_ID = new Set([6, 7, 8, 9, 11]);
/** Discord's bounds for a number option when none is declared (the largest a double holds exactly). */
const MAX_SAFE = 2 ** 53;

const refuse = (where: string, why: string): never => {
  throw new DiscordRefusal(400, 50035, `Invalid Form Body: options.${where}: ${why}`);
};

const declaredOptions = (command: Json): Json[] =>
  (Array.isArray(command.options) ? command.options : []).map(asObject);

/**
 * Checks `given` (the interaction's options, as sent) against `command` (its registration, or a sub-command of it)
 * and gives each option its declared type where the caller left it to be guessed from the value (an integer for a
 * number option, a string for a user's ID). Throws a DiscordRefusal (400, 50035) for anything Discord refuses.
 */
export function checkOptions(command: Json, given: Json[], path = ''): void {
  const declared = declaredOptions(command);
  const subs = declared.filter((o) => o.type === SUB_COMMAND || o.type === SUB_COMMAND_GROUP);
  if (subs.length > 0) {
    const only = given.length === 1 ? given[0]! : undefined;
    const sub = only && subs.find((s) => s.name === only.name);
    if (!only || !sub) return refuse(path || 'sub-command', `choose one of ${subs.map((s) => s.name).join(', ')}`);
    only.type = sub.type;
    const inner = Array.isArray(only.options) ? only.options.map(asObject) : [];
    only.options = inner;
    return checkOptions(sub, inner, `${path}${String(sub.name)}.`);
  }
  const seen = new Set<string>();
  for (const option of given) {
    const name = String(option.name);
    const where = path + name;
    if (seen.has(name)) refuse(where, 'given twice');
    seen.add(name);
    const spec = declared.find((o) => o.name === name);
    if (!spec) return refuse(where, 'not an option of this command');
    checkValue(spec, option, where);
  }
  for (const spec of declared)
    if (spec.required === true && !seen.has(String(spec.name))) refuse(path + String(spec.name), 'required');
}

function checkValue(spec: Json, option: Json, where: string): void {
  const type = Number(spec.type);
  const value = option.value;
  // A type the caller gave must be the declared one; one guessed from the value (integer, string) may be narrower.
  const guessed = (option.type === INTEGER && type === NUMBER) || (option.type === STRING && BY_ID.has(type));
  if (option.type !== type && !guessed) refuse(where, `of type ${type}, not ${String(option.type)}`);
  option.type = type;
  if (type === STRING) {
    if (typeof value !== 'string') return refuse(where, 'not a string');
    const min = typeof spec.min_length === 'number' ? spec.min_length : 0;
    const max = typeof spec.max_length === 'number' ? spec.max_length : 6000;
    if (value.length < min) refuse(where, `at least ${min} characters`);
    if (value.length > max) refuse(where, `at most ${max} characters`);
  } else if (type === INTEGER || type === NUMBER) {
    if (typeof value !== 'number' || !Number.isFinite(value)) return refuse(where, 'not a number');
    if (type === INTEGER && !Number.isInteger(value)) refuse(where, 'not an integer');
    const min = typeof spec.min_value === 'number' ? spec.min_value : -MAX_SAFE;
    const max = typeof spec.max_value === 'number' ? spec.max_value : MAX_SAFE;
    if (value < min) refuse(where, `at least ${min}`);
    if (value > max) refuse(where, `at most ${max}`);
  } else if (type === BOOLEAN) {
    if (typeof value !== 'boolean') refuse(where, 'not a boolean');
  } else if (BY_ID.has(type)) {
    if (typeof value !== 'string' || !/^\d{1,20}$/.test(value)) refuse(where, 'not an ID');
  }
  const choices = Array.isArray(spec.choices) ? spec.choices.map(asObject) : [];
  if (choices.length > 0 && !choices.some((c) => c.value === value)) refuse(where, 'not one of its choices');
}
