// One way to speak: every front-end hands its order to src/features/speaking/speaking-command.ts, the one module that
// calls the pipeline's speak(); and the core words no reply, since how a member is answered is the
// features' (the core keeps the catalogue, t() and the interaction framework). What one order is (its charge,
// allowance, stand-in, cut) lives on the order itself (src/core/order/order-record.ts `Order`), never in a map beside it keyed by its
// charge.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './import-graph.ts';

const HAND_OVER = 'src/features/speaking/speaking-command.ts';

/** The files of src/ and commands/ that call speak( on something (the pipeline's own file aside). */
function speakCallers(): string[] {
  return sourceFiles(['src', 'commands']).filter(
    (file) =>
      file !== 'src/core/order/pipeline.ts' &&
      /\.speak\(/.test(readFileSync(join(ROOT, file), 'utf8').replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')),
  );
}

/** Key families whose texts answer a member: an outcome, a refusal, a failure, a reply's buttons. */
const REPLY_FAMILIES = [
  'error.',
  'say.',
  'buttons.',
  'sound.',
  'voiceMessage.',
  'userInstall.',
  'quota.',
  'budget.',
  'queue.',
  'fallback.',
  'voice.why.',
  'voice.fallback',
];

/**
 * Core files that may name a reply's key, and why: a speech setting declares its refusal with itself (the settings
 * are declared once), and the start-up and served-server checks of the app are not the core's.
 */
const DECLARED_WITH_A_SETTING = new Set(['src/core/settings/setting-declarations.ts']);

/** The quoted strings and template starts in `text` that name a reply's key. */
function replyKeysNamed(text: string): string[] {
  const code = text.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '');
  const quoted = [...code.matchAll(/['"`]([\w-]+(?:\.[\w-]+)+\.?)(?:['"`]|\$\{)/g)].map((m) => m[1] as string);
  return quoted.filter((value) => REPLY_FAMILIES.some((family) => value.startsWith(family)));
}

describe('one way to speak', () => {
  it('speak( is called from one module, the hand-over every front-end gives its order to', () => {
    expect(speakCallers()).toEqual([HAND_OVER]);
  });

  it("keeps an order's state on its one job: no map in src/ is keyed by a charge", () => {
    // A map holds something beside each charge (a set of open charges, accounting's, holds nothing beside them).
    const keyedByCharge = /\b(?:Weak)?Map<\s*Charge\b/;
    expect(keyedByCharge.test('readonly #late = new WeakMap<Charge, QuoteAllowance>();')).toBe(true);
    const files = sourceFiles(['src', 'commands']).filter((file) =>
      keyedByCharge.test(readFileSync(join(ROOT, file), 'utf8').replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')),
    );
    expect(files).toEqual([]);
  });

  it('no file under src/core/ words a reply: none names the key of an outcome, a refusal or a failure', () => {
    const core = sourceFiles(['src/core']).filter((file) => !file.startsWith('src/core/i18n/'));
    expect(core.length).toBeGreaterThan(50);
    const named = core
      .filter((file) => !DECLARED_WITH_A_SETTING.has(file))
      .flatMap((file) => replyKeysNamed(readFileSync(join(ROOT, file), 'utf8')).map((key) => `${file}: ${key}`));
    expect(named).toEqual([]);
  });

  it('finds a reply key quoted whole or as the start of a template, and no other string', () => {
    expect(replyKeysNamed("throw new UserError('error.voice.notInVoice')")).toEqual(['error.voice.notInVoice']);
    expect(replyKeysNamed('key: `error.revoked.${code}`')).toEqual(['error.revoked.']);
    expect(replyKeysNamed("t(locale, 'option.voice'); log.info('say hello')")).toEqual([]);
  });
});
