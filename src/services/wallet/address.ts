import { keccak_256 } from '@noble/hashes/sha3';
import { utf8ToBytes } from '@noble/hashes/utils';
import type { Address } from 'viem';
import { isAddress } from '../../domain/wallet.ts';

// The wallet service is loaded right after the first paint for the silent
// reconnect, so its address handling is these few lines over noble's keccak
// rather than viem's address utilities, which bring viem's error and encoding
// layers along.

/** EIP-55: the mixed-case form of an address; throws for anything that is not one. */
export function checksumAddress(address: string): Address {
  if (!isAddress(address)) throw new TypeError(`Not an address: ${address}`);
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(utf8ToBytes(hex));
  let result = '0x';
  for (let i = 0; i < hex.length; i += 1) {
    // Each hex digit is upper-cased when the matching nibble of the hash is 8 or more.
    const byte = hash[i >> 1] ?? 0;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    result += nibble >= 8 ? hex.charAt(i).toUpperCase() : hex.charAt(i);
  }
  return result as Address;
}
