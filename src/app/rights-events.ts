// Discord's events that may take away a right speech in voice depends on: each asks the pipeline's one check again,
// so what plays for a member who may no longer be heard stops at once. discord.js updates its caches first.
import { Events, type Client } from 'discord.js';

/** Called with the guild (and member) whose rights may have changed. */
export type RightsChanged = (guildId: string, userId?: string) => void;

export function watchRights(client: Client, rightsChanged: RightsChanged): void {
  // A moderator's server mute, a Stage speaker moved to the audience, a member moved or disconnected.
  client.on(Events.VoiceStateUpdate, (_before, after) => rightsChanged(after.guild.id, after.id));
  // A role given or taken (sent only with the Guild Members intent; harmless without it).
  client.on(Events.GuildMemberUpdate, (_before, after) => rightsChanged(after.guild.id, after.id));
  // A channel's permission overwrites (Speak denied to a member or a role): every member there.
  client.on(Events.ChannelUpdate, (_before, after) => {
    if (!after.isDMBased()) rightsChanged(after.guildId);
  });
  // A role's permissions changed or the role deleted: every member of the guild.
  client.on(Events.GuildRoleUpdate, (_before, after) => rightsChanged(after.guild.id));
  client.on(Events.GuildRoleDelete, (role) => rightsChanged(role.guild.id));
  // SayBot kicked or the server deleted (an outage is GuildUnavailable): it no longer serves that server.
  client.on(Events.GuildDelete, (guild) => rightsChanged(guild.id));
}
