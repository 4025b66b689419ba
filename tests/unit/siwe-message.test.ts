import { recoverMessageAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { walletProofCopy } from '../../src/copy/index.ts';
import { WALLET_PROOF_VALIDITY_MS } from '../../src/domain/wallet.ts';
import { MAX_VALIDITY_MS, siweMessage, type SiweMessageInput } from '../../src/services/wallet/siwe.ts';

// The EIP-4361 message a wallet signs to prove itself to link-wallet: read back
// with viem's own parser, as the function reads it.

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const NOW = new Date('2026-03-03T12:00:00.000Z');
const input: SiweMessageInput = {
  url: 'http://127.0.0.1:5173/?tab=portal#top',
  chainId: 31337,
  address: account.address.toLowerCase(),
  nonce: 'Abc123def456ghi789',
  now: NOW,
  statement: walletProofCopy.statement,
};

describe('the wallet proof message', () => {
  it("names the page's host and origin, the chain, the nonce and the statement, version 1", () => {
    const message = siweMessage(input);
    expect(parseSiweMessage(message)).toEqual({
      domain: '127.0.0.1:5173',
      address: account.address,
      statement: walletProofCopy.statement,
      uri: 'http://127.0.0.1:5173',
      version: '1',
      chainId: 31337,
      nonce: 'Abc123def456ghi789',
      issuedAt: NOW,
      // Not before its issue: hosted Auth, which would also take it as a sign-in, then holds it to its expiry.
      notBefore: NOW,
      expirationTime: new Date(NOW.getTime() + 10 * 60 * 1000),
    });
    expect(message.split('\n')[0]).toBe('127.0.0.1:5173 wants you to sign in with your Ethereum account:');
  });

  it('expires 10 minutes after it is issued, or when the nonce does if that is sooner, never later', () => {
    const expiry = (notAfter: Date | null | undefined) =>
      parseSiweMessage(siweMessage({ ...input, notAfter })).expirationTime?.getTime();
    const latest = NOW.getTime() + WALLET_PROOF_VALIDITY_MS;
    expect(WALLET_PROOF_VALIDITY_MS).toBe(600_000);
    expect(MAX_VALIDITY_MS).toBe(WALLET_PROOF_VALIDITY_MS);
    expect(expiry(new Date(NOW.getTime() + 4 * 60_000))).toBe(NOW.getTime() + 4 * 60_000);
    expect(expiry(new Date(latest + 60 * 60_000))).toBe(latest);
    expect(expiry(null)).toBe(latest);
    expect(expiry(new Date(Number.NaN))).toBe(latest);
  });

  it('is valid for that domain and nonce while it lasts, and no longer', () => {
    const message = parseSiweMessage(siweMessage(input));
    const check = (time: Date) =>
      validateSiweMessage({
        message,
        address: account.address,
        domain: '127.0.0.1:5173',
        nonce: input.nonce,
        time,
      });
    expect(check(new Date(NOW.getTime() + 9 * 60_000))).toBe(true);
    expect(check(new Date(NOW.getTime() + 11 * 60_000))).toBe(false);
  });

  it('is what personal_sign signs: the signature recovers the address', async () => {
    const message = siweMessage(input);
    const signature = await account.signMessage({ message });
    expect(await recoverMessageAddress({ message, signature })).toBe(account.address);
  });

  it("refuses a field viem refuses, with viem's one-line reason", () => {
    const reason = (fields: Partial<SiweMessageInput>) => {
      try {
        siweMessage({ ...input, ...fields });
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('expected a refusal');
    };
    expect(reason({ nonce: 'short!' })).toBe('Invalid Sign-In with Ethereum message field "nonce".');
    expect(reason({ address: '0x1234' })).not.toContain('\n');
  });
});
