import type { Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { LOCAL_WALLET_KEY } from './names.ts';

export { LOCAL_WALLET_KEY };

// The local test wallet's key, made in the browser and kept in its storage, as Scaffold-ETH's
// burner wallet keeps its own: a throwaway key for the local chain only (a build for any other
// chain has none of this code), which the person may reveal and replace from the wallet's menu.

const PRIVATE_KEY = /^0x[0-9a-f]{64}$/;

export type KeyStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** The stored key, or null when there is none or what is stored is no key. */
export function storedKey(storage: KeyStorage): Hex | null {
  const value = storage.getItem(LOCAL_WALLET_KEY);
  return value !== null && PRIVATE_KEY.test(value) ? (value as Hex) : null;
}

/** The stored key, or a new one, stored; `created` says which (a new wallet is funded on first use). */
export function loadOrCreateKey(
  storage: KeyStorage,
  make: () => Hex = generatePrivateKey,
): { key: Hex; created: boolean } {
  const existing = storedKey(storage);
  if (existing) return { key: existing, created: false };
  return { key: replaceKey(storage, make), created: true };
}

/** A new key in place of the stored one: the old wallet is gone from this browser. */
export function replaceKey(storage: KeyStorage, make: () => Hex = generatePrivateKey): Hex {
  const key = make().toLowerCase() as Hex;
  storage.setItem(LOCAL_WALLET_KEY, key);
  return key;
}
