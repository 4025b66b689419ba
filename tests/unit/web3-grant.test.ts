import { describe, expect, it } from 'vitest';
import { parseSiweMessage, web3EthereumEnabled } from '../../stack/gateway/web3-grant.ts';

// The line parser of Sign in with Ethereum messages, as Supabase Auth reads them.

const ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const lines = (overrides: Record<number, string> = {}, extra: string[] = []) =>
  [
    '127.0.0.1:5173 wants you to sign in with your Ethereum account:',
    ADDRESS,
    '',
    'Sign in to DDEX',
    '',
    'URI: http://127.0.0.1:5173/',
    'Version: 1',
    'Chain ID: 31337',
    'Issued At: 2026-11-23T12:00:00.000Z',
    ...extra,
  ]
    .map((line, index) => overrides[index] ?? line)
    .join('\n');

describe('Sign in with Ethereum messages', () => {
  it('reads supabase-js’s message, which has no nonce', () => {
    expect(parseSiweMessage(lines())).toMatchObject({
      domain: '127.0.0.1:5173',
      address: ADDRESS,
      statement: 'Sign in to DDEX',
      version: '1',
      chainId: 31337,
      nonce: null,
      issuedAt: new Date('2026-11-23T12:00:00.000Z'),
      expirationTime: null,
    });
    expect(parseSiweMessage(lines()).uri.href).toBe('http://127.0.0.1:5173/');
  });

  it('reads a message without a statement, and the optional fields', () => {
    const message = parseSiweMessage(
      lines({ 3: 'URI: http://127.0.0.1:5173/', 4: 'Version: 1' }, [
        'Nonce: abcdef123456',
        'Expiration Time: 2026-11-23T12:10:00.000Z',
      ]),
    );
    expect(message).toMatchObject({ statement: null, nonce: 'abcdef123456' });
    expect(message.expirationTime).toEqual(new Date('2026-11-23T12:10:00.000Z'));
  });

  it.each([
    ['a first line of another kind', { 0: 'Sign this' }, /first line/],
    [
      'a domain with a path',
      { 0: 'example.com/x wants you to sign in with your Ethereum account:' },
      /domain/,
    ],
    ['an address that is not one', { 1: '0x1234' }, /address/],
    ['a version other than 1', { 6: 'Version: 2' }, /Version must be 1/],
    ['a chain id that is not one', { 7: 'Chain ID: mainnet' }, /Chain ID/],
    ['a time that is not RFC 3339', { 8: 'Issued At: yesterday' }, /Issued At/],
    ['no URI', { 5: 'Resources:' }, /URI is required/],
  ])('refuses %s', (_label, overrides, reason) => {
    expect(() => parseSiweMessage(lines(overrides))).toThrow(reason);
  });

  it('reads whether the Ethereum Web3 provider is enabled, as config.toml says', () => {
    expect(web3EthereumEnabled('[auth.web3.ethereum]\nenabled = true\n')).toBe(true);
    expect(web3EthereumEnabled('[auth.web3.ethereum]\nenabled = false\n')).toBe(false);
    expect(web3EthereumEnabled('[auth.web3.solana]\nenabled = true\n')).toBe(false);
    expect(web3EthereumEnabled('')).toBe(false);
  });
});
