// The buttons under a reply, as action rows. A voice message carries no components, so its buttons go on a
// Components V2 message of their own, to the member alone. Presses: reply-buttons.ts.
import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIContainerComponent,
} from 'discord.js';
import { t } from './strings.ts';
import type { ReplayableRequest, ReplyAudioRegistry } from './reply-audio.ts';

/** The longest sound Discord's soundboard takes (soundboard.ts saves within it): longer offers no "Save as sound". */
export const SOUND_MAX_SECONDS = 5.2;

/** `sb1:<action>:<id>`: versioned, so a later layout can tell old buttons apart. At most 26 characters. */
const PREFIX = 'sb1';
/** `play`: in the member's voice channel; `post`: the voice message again; `sound`: to the soundboard. */
type Action = 'play' | 'post' | 'sound';

export function customId(action: Action, id: string): string {
  return `${PREFIX}:${action}:${id}`;
}

export function parseCustomId(value: string): { action: Action; id: string } | undefined {
  const match = /^sb1:(play|post|sound):([\w-]{1,32})$/.exec(value);
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
export function replyButtons(
  locale: string,
  kind: 'file' | 'voice',
  source: ReplyButtonSource,
  seconds: number,
): APIActionRowComponent<APIButtonComponent> {
  const id = register(source, seconds);
  return row([
    button('play', id, t(locale, kind === 'file' ? 'buttons.play' : 'buttons.again'), ButtonStyle.Primary),
    button('sound', id, t(locale, 'buttons.sound')),
  ]);
}

/** A voice message's buttons as a Components V2 container; "Save as sound" only within SOUND_MAX_SECONDS. */
export function voiceMessageButtons(
  locale: string,
  source: ReplyButtonSource,
  seconds: number,
  voice: string,
): APIContainerComponent[] {
  const id = register(source, seconds);
  const buttons = [
    button('play', id, t(locale, 'buttons.play'), ButtonStyle.Primary),
    button('post', id, t(locale, 'buttons.again')),
  ];
  if (seconds <= SOUND_MAX_SECONDS) buttons.push(button('sound', id, t(locale, 'buttons.sound')));
  return [
    {
      type: ComponentType.Container,
      components: [
        {
          type: ComponentType.TextDisplay,
          content: t(locale, 'buttons.voiceMessage', { voice, seconds: seconds.toFixed(1) }),
        },
        row(buttons),
      ],
    },
  ];
}

function register({ registry, ...audio }: ReplyButtonSource, seconds: number): string {
  return registry.register({ ...audio, seconds });
}

function button(
  action: Action,
  id: string,
  label: string,
  style: ButtonStyle.Primary | ButtonStyle.Secondary = ButtonStyle.Secondary,
): APIButtonComponent {
  return { type: ComponentType.Button, style, custom_id: customId(action, id), label };
}

function row(components: APIButtonComponent[]): APIActionRowComponent<APIButtonComponent> {
  return { type: ComponentType.ActionRow, components };
}
