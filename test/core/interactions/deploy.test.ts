import { describe, expect, it, vi } from 'vitest';
import { messageMenu, slashCommand } from '../../../src/core/interactions/command-builder.ts';
import { sameDefinitions, withUserInstall } from '../../../src/core/interactions/deploy.ts';
import { loadFeatureStrings } from '../../../src/app/feature-strings.ts';

// The definitions below are built from features' keys (the Speak menu, /say) without their command modules.
await loadFeatureStrings();

describe('sameDefinitions with message menus', () => {
  const menu = messageMenu('speak').toJSON();
  // As Discord answers GET .../commands for it: its own fields, defaults spelled out, an empty description.
  const held = {
    ...menu,
    id: '1',
    application_id: '2',
    version: '3',
    description: '',
    description_localizations: null,
    options: [],
    default_member_permissions: null,
    nsfw: false,
    dm_permission: true,
    integration_types: [0],
  };

  it('finds a menu unchanged when Discord holds it with its own defaults and an empty description', () => {
    expect(sameDefinitions([held], [menu])).toBe(true);
  });

  it('finds a change in a menu, and never takes a menu for a slash command', () => {
    expect(sameDefinitions([{ ...held, name_localizations: { ko: '말하기', ja: '読み上げ' } }], [menu])).toBe(false);
    expect(sameDefinitions([{ ...held, default_member_permissions: '32' }], [menu])).toBe(false);
    // The same fields under type 1 would be a slash command: `type` 3 is kept, only a slash command's 1 is dropped.
    expect(sameDefinitions([{ ...held, type: 1 }], [menu])).toBe(false);
    expect(sameDefinitions([{ ...slashCommand('say').toJSON(), type: 1 }], [slashCommand('say').toJSON()])).toBe(true);
  });
});

describe('sameDefinitions with the user install', () => {
  const say = slashCommand('say').toJSON();
  const held = { ...say, id: '1', application_id: '2', version: '3', integration_types: [0] };

  it("takes Discord's default server install as unchanged, and turning the user install on or off as a change", () => {
    expect(sameDefinitions([held], [say])).toBe(true);
    const forUsers = withUserInstall(say, true);
    expect(forUsers).toMatchObject({ integration_types: [0, 1], contexts: [0, 1, 2] });
    expect(sameDefinitions([held], [forUsers])).toBe(false);
    expect(sameDefinitions([{ ...held, integration_types: [0, 1], contexts: [0, 1, 2] }], [forUsers])).toBe(true);
    expect(
      sameDefinitions([{ ...held, integration_types: [0, 1], contexts: [0, 1, 2] }], [withUserInstall(say, false)]),
    ).toBe(false);
  });
});

describe('sameDefinitions at every start', () => {
  const names = ['say', 'emote', 'join', 'leave', 'skip', 'stop', 'usage', 'voices', 'budget', 'privacy'] as const;
  const wanted = names.map((name) => slashCommand(name).toJSON());
  const held = wanted.map((c, i) => ({ ...c, id: String(i), application_id: '2', version: '3' })).reverse();

  it('serialises each definition a bounded number of times, not once a comparison of a sort', () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      expect(sameDefinitions(held, wanted)).toBe(true);
      // Its canonical form's check of integration_types and its key: two a definition, and one a list.
      expect(stringify.mock.calls.length).toBeLessThanOrEqual(2 * (held.length + wanted.length) + 2);
    } finally {
      stringify.mockRestore();
    }
  });
});
