import type { Market } from '../../../src/domain/dex.ts';

// The chains, accounts and amounts a machine's unit test (tests/unit/machines) and its generated
// paths (tests/model) share, so that both meet the same world. Users and rows: ../fixtures.ts.

/** The chain the wallet machine expects in its tests, as the build names it, and one it does not. */
export const SEPOLIA = { id: 11155111, name: 'Sepolia' };
export const OTHER_CHAIN = 1;

/** Two wallet accounts: the one connected, and another the wallet switches to. */
export const ALICE = '0x1234567890abcdef1234567890abcdef1234abcd';
export const BOB = '0xb0b0000000000000000000000000000000000b0b';

/** One ETH (or DDEX) in wei: the DEX machines' amounts are bigints of 18 decimals. */
export const E18 = 10n ** 18n;

/** The DEX as the trading machines load it: every contract at one address, a 0.3 % fee. */
const DEX = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
export const market: Market = { router: DEX, factory: DEX, weth: DEX, pair: DEX, token: DEX, feeBps: 30 };

/** A mined transaction's hash (a swap's, in the trading machines' tests). */
export const HASH = `0x${'cd'.repeat(32)}` as const;
