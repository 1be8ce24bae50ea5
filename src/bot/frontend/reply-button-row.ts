// The buttons under a file reply ("Play in my voice channel", "Save as sound") and under a reply that was spoken in
// voice ("Again", "Save as sound"), as classic action rows. A voice message carries no components (Discord refuses
// them with its content), so a voice-message reply has none. Presses: reply-buttons.ts.
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent } from 'discord.js';
import { t } from '../i18n.ts';
import type { ReplayableRequest, ReplyAudioRegistry } from './reply-audio.ts';

/** `sb1:<action>:<id>`: versioned, so a later layout can tell old buttons apart. At most 26 characters. */
const PREFIX = 'sb1';
type Action = 'play' | 'sound';

export function customId(action: Action, id: string): string {
  return `${PREFIX}:${action}:${id}`;
}

export function parseCustomId(value: string): { action: Action; id: string } | undefined {
  const match = /^sb1:(play|sound):([\w-]{1,32})$/.exec(value);
  return match ? { action: match[1] as Action, id: match[2] ?? '' } : undefined;
}

/** What a reply's buttons need to replay it, if the bot keeps replies (context.replyAudio). */
export interface ReplyButtonSource {
  registry: ReplyAudioRegistry;
  request: ReplayableRequest;
  guildId: string;
  askerId: string;
}

/** The row of buttons for a reply: `file` (play in the member's channel) or `voice` (play again). */
export function replyButtons(locale: string, kind: 'file' | 'voice', source: ReplyButtonSource, seconds: number): APIActionRowComponent<APIButtonComponent> {
  const id = source.registry.register({ request: source.request, guildId: source.guildId, askerId: source.askerId, seconds });
  return {
    type: ComponentType.ActionRow,
    components: [
      { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: customId('play', id), label: t(locale, kind === 'file' ? 'buttons.play' : 'buttons.again') },
      { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId('sound', id), label: t(locale, 'buttons.sound') },
    ],
  };
}

