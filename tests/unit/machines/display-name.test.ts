import { describe, expect, it } from 'vitest';
import { appCopy, shortAddress } from '../../../src/copy/index.ts';
import { defaultUsername, displayName } from '../../../src/machines/profile/display-name.ts';

const id = '0123456789abcdef-0000-4000-8000-000000000000';
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const emailUser = (email: string | null) => ({ email, web3Address: null });
const walletUser = { email: null, web3Address: ADDRESS };

describe('displayName (docs/product.md#display-name)', () => {
  it('is the profile username first', () => {
    expect(displayName({ username: 'satoshi' }, emailUser('ada@example.com'))).toBe('satoshi');
    expect(displayName({ username: 'satoshi' }, walletUser)).toBe('satoshi');
  });

  it('else the part of the email before the at-sign', () => {
    expect(displayName({ username: null }, emailUser('ada.lovelace@example.com'))).toBe('ada.lovelace');
    expect(displayName({ username: '   ' }, emailUser('ada@example.com'))).toBe('ada');
    expect(displayName(null, emailUser('ada@example.com'))).toBe('ada');
    expect(displayName(null, { email: 'ada@example.com', web3Address: ADDRESS })).toBe('ada');
  });

  it('else the address the user signed in with, shortened as the wallet panel shortens it', () => {
    expect(displayName({ username: null }, walletUser)).toBe('0x7099...79C8');
    expect(displayName(null, walletUser)).toBe(shortAddress(ADDRESS));
  });

  it("else 'User'", () => {
    expect(displayName(null, null)).toBe(appCopy.displayNameFallback);
    expect(displayName({ username: '' }, emailUser(null))).toBe(appCopy.displayNameFallback);
    expect(displayName(undefined, emailUser('@example.com'))).toBe(appCopy.displayNameFallback);
  });
});

describe('defaultUsername (docs/product.md#tables)', () => {
  it('is the part of the email before the at-sign', () => {
    expect(defaultUsername({ id, ...emailUser('ada@example.com') })).toBe('ada');
  });

  it("else 'user_' and the first 8 characters of the id", () => {
    expect(defaultUsername({ id, ...emailUser(null) })).toBe('user_01234567');
    expect(defaultUsername({ id, ...emailUser('@example.com') })).toBe('user_01234567');
    // Only blanks before the at-sign are no name either.
    expect(defaultUsername({ id, ...emailUser('  @example.com') })).toBe('user_01234567');
  });

  it('is none for a wallet-only user, whose display name is then the address', () => {
    expect(defaultUsername({ id, ...walletUser })).toBeNull();
  });
});
