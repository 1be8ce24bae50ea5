// A PostgreSQL password as `openssl rand -base64` makes it (with / + =) or as people type it (# ? @ :) in
// DATABASE_URL: the line names the variable and the part that is wrong, never the URL or the password, and says
// how to percent-encode it or how to make a password that needs no encoding.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config.ts';

const token = ['TEST', 'bot', 'token-value-do-not-use'].join('.');
const base = { DISCORD_TOKEN: token, DISCORD_CLIENT_ID: '123456789012345678' };

/** The configuration line about DATABASE_URL, or undefined when the configuration loads. */
function databaseUrlLine(url: string): string | undefined {
  try {
    loadConfig({ ...base, DATABASE_URL: url });
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    expect(error.problems).toHaveLength(1);
    return error.problems[0];
  }
}

describe('DATABASE_URL that does not parse', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['a / in the password', 'Kq7/xZ2+pW9=', /password/],
    ['a # in the password', 'Kq7#xZ2pW9', /password/],
    ['a ? in the password', 'Kq7?xZ2pW9', /password/],
    ['a / in the password that begins with digits (read as a port)', '5432/xZ2pW9', /password/],
  ];
  it.each(cases)(
    '%s: names the variable and the password, says how to encode, never shows either',
    (_, password, part) => {
      const line = databaseUrlLine(`postgres://saybot:${password}@postgres:5432/saybot`) ?? '';
      expect(line).toMatch(/^Configuration: DATABASE_URL /);
      expect(line).toMatch(part);
      expect(line).toContain('%2F');
      expect(line).toContain('openssl rand -hex 24');
      expect(line).not.toContain(password);
      expect(line).not.toContain(password.slice(0, 4));
      expect(line).not.toContain('saybot:');
    },
  );

  it('a / in the user name names the user name', () => {
    const line = databaseUrlLine('postgres://say/bot@postgres:5432/saybot') ?? '';
    expect(line).toMatch(/^Configuration: DATABASE_URL .*user name/);
  });

  it('a port that is not a number names the port', () => {
    const line = databaseUrlLine('postgres://saybot:pw@postgres:54x2/saybot') ?? '';
    expect(line).toMatch(/^Configuration: DATABASE_URL .*port/);
    expect(line).not.toContain('pw@');
  });

  it('accepts a password from `openssl rand -hex 24`, and an encoded one, as PostgreSQL will read them', () => {
    const hex = randomBytes(24).toString('hex');
    expect(databaseUrlLine(`postgres://saybot:${hex}@postgres:5432/saybot`)).toBeUndefined();
    const typed = 'Kq7/xZ2#p?W@9:';
    expect(databaseUrlLine(`postgres://saybot:${encodeURIComponent(typed)}@postgres:5432/saybot`)).toBeUndefined();
    expect(databaseUrlLine('postgresql://db.internal/saybot?sslmode=require')).toBeUndefined();
  });
});
