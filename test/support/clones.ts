// A cloned voice made the way a member makes one (/clone with a clip, its first line posted as a file: nothing to
// wait for in voice), for end-to-end tests that need a server's own voice.
import { fixture } from '../core/audio/fixtures.ts';
import { runCommand, type Harness } from './harness.ts';

/** `userId` clones a voice named `name` in `guildId`; its voice ID. */
export async function madeClone(h: Harness, guildId: string, userId: string, name: string): Promise<string> {
  const { content } = await runCommand(h, {
    guildId,
    userId,
    name: 'clone',
    options: { text: 'Hello, this is me.', name, consent: true, output: 'file' },
    attachments: [
      { option: 'audio', data: fixture('tone-220hz-5s-48k.wav'), filename: `${name}.wav`, contentType: 'audio/wav' },
    ],
  });
  const id = /`(clone_[^`]+)`/.exec(content)?.[1];
  if (id === undefined) throw new Error(`no clone made: ${content}`);
  return id;
}
