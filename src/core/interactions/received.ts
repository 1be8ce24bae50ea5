// When SayBot received each interaction, on this process's monotonic clock. Discord counts an interaction's 3 s
// and its token's 15 minutes by its own clock; the host's wall clock may be minutes off (a VM back from sleep, a
// container without time sync), so neither is ever judged from the ID's timestamp against Date.now().
import type { BaseInteraction } from 'discord.js';

const receivedAt = new WeakMap<BaseInteraction, number>();

/** Notes the moment an interaction arrived (the first thing done with it); a second note keeps the first. */
export function noteReceived(interaction: BaseInteraction, at: number = performance.now()): void {
  if (!receivedAt.has(interaction)) receivedAt.set(interaction, at);
}

/** Milliseconds since the interaction arrived; one never noted (not routed here) counts from now. */
export function sinceReceived(interaction: BaseInteraction): number {
  noteReceived(interaction);
  return performance.now() - (receivedAt.get(interaction) ?? performance.now());
}

/** When the interaction arrived, in ms since the epoch by this host's clock (for durations measured on this host). */
export function receivedAtEpochMs(interaction: BaseInteraction): number {
  return Date.now() - sinceReceived(interaction);
}
