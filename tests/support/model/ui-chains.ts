import { e2e } from '../e2e/context.ts';

// The chains the portal's UI models (tests/model/*.ui.test.ts) name: the e2e stack's own, as the
// portal's build names it, and one the portal does not run on. Read when a test file loads.

/** The e2e stack's chain id, which the portal expects. */
export const LOCAL = e2e().chain.chainId;
/** The same chain as the portal's build names it (the wallet's expected chain). */
export const LOCAL_CHAIN = { id: LOCAL, name: 'Hardhat (local)' };
/** Ethereum mainnet: a chain the portal does not run on, where a wallet can be switched away to. */
export const MAINNET = 1;
