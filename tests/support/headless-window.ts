import type { WalletWindow } from '../../src/services/wallet/types.ts';
import type { MockWalletTarget } from './mock-wallet.ts';

// The slice of `window` the portal's services use, for running the portal
// headless in Node: events (EIP-6963), storage and a clipboard.
export type HeadlessWindow = MockWalletTarget & WalletWindow & { clipboardText: string[] };

export function headlessWindow(): HeadlessWindow {
  const storage = new Map<string, string>();
  const clipboardText: string[] = [];
  return Object.assign(new EventTarget(), {
    clipboardText,
    localStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    },
    navigator: {
      clipboard: {
        writeText: async (text: string) => {
          clipboardText.push(text);
        },
      },
    },
  });
}
