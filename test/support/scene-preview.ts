// /scene's preview and its buttons as a member meets them in the local Discord: the form filled with a script, the
// preview SayBot shows, and a press on one of its buttons.
import type { InteractionHandle, InteractionResponse } from '@saybot/local-discord';
import type { Harness } from './harness.ts';
import { ALICE } from './world.ts';

export interface Preview {
  shown: InteractionResponse;
  messageId: string;
  confirm: string | undefined;
  cancel: string | undefined;
}

/** The preview's buttons, read from a response carrying it (the first one, or a press that showed it again). */
export function previewOf(shown: InteractionResponse, messageId = String(shown.message?.id)): Preview {
  const rows = (shown.message?.components ?? []) as Array<{ components: Array<{ custom_id: string }> }>;
  const ids = rows.flatMap((row) => row.components.map((button) => button.custom_id));
  return {
    shown,
    messageId,
    confirm: ids.find((id) => id.startsWith('scene:go:')),
    cancel: ids.find((id) => id.startsWith('scene:no:')),
  };
}

/**
 * /scene new in `guildId` with `script` written in its form (or, `asFile`, attached as a .txt: the form takes 4,000
 * characters), and the preview SayBot shows `userId`.
 */
export async function previewScene(
  harness: Harness,
  guildId: string,
  script: string,
  output?: 'voice' | 'file' | 'voice-message',
  { userId = ALICE, asFile = false }: { userId?: string; asFile?: boolean } = {},
): Promise<Preview> {
  const options: Array<{ name: string; type?: number; value: string }> =
    output === undefined ? [] : [{ name: 'output', value: output }];
  if (asFile) {
    const attachment = harness.discord.hostAttachment(Buffer.from(script), 'scene.txt', 'text/plain');
    options.push({ name: 'script', type: 11, value: attachment.id });
  }
  const asked = await harness.discord.command({
    guildId,
    userId,
    name: 'scene',
    options: [{ name: 'new', type: 1, options }],
  });
  let answered = asked;
  if (!asFile) {
    await asked.waitFor((r) => r.kind === 'callback' && r.type === 9);
    answered = await harness.discord.submitModal({ on: asked, values: { script } });
  }
  const shown = await answered.waitFor((r) => r.kind !== 'delete' && r.content !== undefined, 20_000);
  return previewOf(shown);
}

/** A press on one of the preview's buttons by `userId`. */
export async function pressSceneButton(
  harness: Harness,
  guildId: string,
  shown: Preview,
  customId: string | undefined,
  userId = ALICE,
): Promise<InteractionHandle> {
  if (customId === undefined) throw new Error(`no such button under: ${shown.shown.content ?? ''}`);
  return harness.discord.pressButton({ guildId, userId, messageId: shown.messageId, customId });
}
