// The command modules, loaded once from commands/, and which one an interaction is for (its name, `<name>:` ids).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApplicationCommandType } from 'discord.js';
import type { AnsweredInteraction, AnyCommandModule, CommandModule } from './command.ts';

/** Loads every command module in `dir` by name; a malformed module or a name used twice stops start-up. */
export async function loadCommands(dir: string): Promise<Map<string, AnyCommandModule>> {
  const commands = new Map<string, AnyCommandModule>();
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).sort();
  for (const file of files) {
    const shown = path.join(path.basename(dir), file);
    const mod: unknown = await import(pathToFileURL(path.join(dir, file)).href);
    if (!isCommandModule(mod))
      throw new Error(
        `${shown} must export \`data\` (a command builder), \`execute\` and \`uses\` (the services it is given)`,
      );
    // A slash command's name is lower case and a menu's ("Speak") is what members read, so one key space serves both.
    if (commands.has(mod.data.name)) throw new Error(`${shown} repeats the command name "${mod.data.name}"`);
    commands.set(mod.data.name, mod);
  }
  return commands;
}

/** The command an interaction answers for: its own, or for a form's submit the one that showed it. */
export function commandNameOf(interaction: AnsweredInteraction): string {
  return 'commandName' in interaction ? interaction.commandName : ownerOfCustomId(interaction.customId);
}

/** `clone` of `clone:form:file`. */
export function ownerOfCustomId(customId: string): string {
  return customId.split(':', 1)[0] ?? '';
}

export function isCommandModule(value: unknown): value is AnyCommandModule {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Partial<Record<keyof CommandModule, unknown>>;
  const data = m.data as { name?: unknown; type?: unknown; toJSON?: unknown } | undefined;
  return (
    typeof data === 'object' &&
    typeof data.name === 'string' &&
    typeof data.toJSON === 'function' &&
    (data.type === undefined || data.type === ApplicationCommandType.Message) &&
    typeof m.execute === 'function' &&
    Array.isArray(m.uses) &&
    m.uses.every((service) => typeof service === 'string') &&
    (m.autocomplete === undefined || (data.type === undefined && typeof m.autocomplete === 'function')) &&
    (m.requires === undefined || (typeof m.requires === 'object' && m.requires !== null))
  );
}
