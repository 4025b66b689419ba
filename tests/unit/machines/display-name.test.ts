import { describe, expect, it } from 'vitest';
import { appCopy } from '../../../src/copy/index.ts';
import { defaultUsername, displayName } from '../../../src/machines/display-name.ts';

const id = '0123456789abcdef-0000-4000-8000-000000000000';

describe('displayName (docs/product.md#display-name)', () => {
  it('is the profile username first', () => {
    expect(displayName({ username: 'satoshi' }, { email: 'ada@example.com' })).toBe('satoshi');
  });

  it('else the part of the email before the at-sign', () => {
    expect(displayName({ username: null }, { email: 'ada.lovelace@example.com' })).toBe('ada.lovelace');
    expect(displayName({ username: '   ' }, { email: 'ada@example.com' })).toBe('ada');
    expect(displayName(null, { email: 'ada@example.com' })).toBe('ada');
  });

  it("else 'User'", () => {
    expect(displayName(null, null)).toBe(appCopy.displayNameFallback);
    expect(displayName({ username: '' }, { email: null })).toBe(appCopy.displayNameFallback);
    expect(displayName(undefined, { email: '@example.com' })).toBe(appCopy.displayNameFallback);
  });
});

describe('defaultUsername (docs/product.md#tables)', () => {
  it('is the part of the email before the at-sign', () => {
    expect(defaultUsername({ id, email: 'ada@example.com' })).toBe('ada');
  });

  it("else 'user_' and the first 8 characters of the id", () => {
    expect(defaultUsername({ id, email: null })).toBe('user_01234567');
    expect(defaultUsername({ id, email: '@example.com' })).toBe('user_01234567');
  });
});
