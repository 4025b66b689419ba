import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { isAddress } from '../../src/domain/wallet.ts';
import { checksumAddress } from '../../src/services/wallet/address.ts';

describe('wallet address helpers', () => {
  it("writes EIP-55's own examples in their mixed case", () => {
    // The test vectors of EIP-55 itself.
    for (const expected of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(checksumAddress(expected.toLowerCase())).toBe(expected);
      expect(checksumAddress(expected.toUpperCase().replace('0X', '0x'))).toBe(expected);
    }
  });

  it('agrees with viem on random addresses', () => {
    for (let i = 0; i < 200; i += 1) {
      const address = `0x${randomBytes(20).toString('hex')}`;
      expect(checksumAddress(address)).toBe(getAddress(address));
    }
  });

  it('accepts 0x and 40 hex digits in any case and nothing else', () => {
    expect(isAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(true);
    for (const bad of [
      '',
      '0x',
      '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae',
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaedd',
      '0xzaaeb6053f3e94c9b9a09f33669435e7ef1beaed',
    ]) {
      expect(isAddress(bad)).toBe(false);
      expect(() => checksumAddress(bad)).toThrow(TypeError);
    }
  });
});
