// The committed, compiled DDEX token (regenerate with `tsx contracts/build.ts`; the unit test
// tests/unit/ddex-artifact.test.ts fails if it drifts from contracts/DDEX.sol).
import type { Abi } from 'viem';
import artifact from './artifacts/DDEX.json' with { type: 'json' };

export interface DdexArtifact {
  contractName: 'DDEX';
  compiler: string;
  abi: Abi;
  bytecode: `0x${string}`;
  deployedBytecode: `0x${string}`;
}

// JSON imports widen literals (e.g. `type: string`), so the ABI is asserted to viem's Abi here;
// the unit test checks the shape against a fresh compile.
export const ddexArtifact: DdexArtifact = artifact as DdexArtifact;
