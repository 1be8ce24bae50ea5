// The parts one FakeDiscord is made of (FakeDiscord.start assembles them), shared by the classes its API is split into.
import type { Server } from 'node:http';
import type { Cdn } from './cdn.ts';
import type { DiscordClock } from './clock.ts';
import type { CommandPermissionStore } from './command-permissions.ts';
import type { CommandStore } from './commands.ts';
import type { Gateway } from './gateway.ts';
import type { HeardAudioStore } from './heard-audio.ts';
import type { Interactions } from './interactions.ts';
import type { Membership } from './membership.ts';
import type { MessageStore } from './messages.ts';
import type { LocalOAuth2 } from './oauth2.ts';
import type { RestApi } from './rest.ts';
import type { VoiceGateway } from './voice-gateway.ts';
import type { VoiceSignalling } from './voice-signalling.ts';
import type { VoiceUdp } from './voice-udp.ts';
import type { Waits } from './waits.ts';
import type { BotApplication, World } from './world.ts';

export interface Parts {
  world: World;
  signalling: VoiceSignalling;
  membership: Membership;
  /** Each application's own commands (the main one's are `commands`). */
  commandsOf: (application: BotApplication) => CommandStore;
  server: Server;
  rest: RestApi;
  cdn: Cdn;
  messages: MessageStore;
  commands: CommandStore;
  commandPermissions: CommandPermissionStore;
  interactions: Interactions;
  gateway: Gateway;
  voice: VoiceGateway;
  udp: VoiceUdp;
  audio: HeardAudioStore;
  waits: Waits;
  clock: DiscordClock;
  daveWatchers: Set<() => void>;
  oauth2: LocalOAuth2;
}
