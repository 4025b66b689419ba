// Whether this build offers the local test wallet: a build for the local chain (Hardhat's chain
// id, 31337) only. Vite writes the chain id into the bundle as a literal. The wallet's code is
// imported in src/main.tsx behind the same comparison written out there, which the bundler drops
// with its imports in a build for any other chain (scripts/check-entry-size.ts checks a Sepolia
// build for any trace of it); this constant tells the portal's input whether to offer it.
export const LOCAL_WALLET_BUILD = import.meta.env.VITE_CHAIN_ID === '31337';
