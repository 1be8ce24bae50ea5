// The scan every e2e harness runs on its bot's log when it closes (test/support/log-leaks.ts) must catch what it
// looks for, or the e2e suite's clean logs would prove nothing.
import { describe, expect, it } from 'vitest';
import type { InteractionHandle, InteractionResponse } from '@saybot/local-discord/types.ts';
import { logLeaks } from '../support/log-leaks.ts';

const token = `aW50ZXJhY3Rpb24.${'x'.repeat(48)}`;
const privateText = 'Only you can see this private answer about your budget.';
const response = (over: Partial<InteractionResponse>): InteractionResponse =>
  ({
    kind: 'callback',
    type: 4,
    files: [],
    raw: {},
    mentioned: { users: [], roles: [], everyone: false },
    ...over,
  }) as InteractionResponse;
const interaction = {
  id: '1',
  token,
  dispatchedAtMs: 0,
  responses: [
    response({ content: privateText, flags: 64 }),
    response({ content: 'A public line that anyone may read in the log.' }),
  ],
} as unknown as InteractionHandle;
const line = (fields: Record<string, unknown>) => JSON.stringify({ level: 30, msg: 'x', ...fields });

describe('logLeaks', () => {
  it('passes clean lines, public reply text included', () => {
    expect(
      logLeaks(
        [
          line({
            route: '/webhooks/1/:token/messages/@original',
            note: 'A public line that anyone may read in the log.',
          }),
        ],
        [interaction],
      ),
    ).toEqual([]);
  });

  it.each([
    ['an interaction token', line({ url: `/webhooks/1/${token}` }), /interaction token/],
    ['private reply text', line({ body: { content: privateText } }), /private reply/],
    ['bytes as keys', line({ data: { ...new Uint8Array([1, 2, 3, 4]) } }), /one JSON value per byte/],
    ['bytes as an array', line({ data: Buffer.alloc(100, 9).toJSON() }), /one JSON value per byte/],
    ['a long line', line({ text: 'y'.repeat(40 * 1024) }), /bytes long/],
  ])('finds %s', (_what, bad, problem) => {
    const problems = logLeaks([bad], [interaction]);
    expect(problems).toEqual([expect.stringMatching(problem)]);
    expect(problems.join('')).not.toContain(token);
  });
});
