// Compiles contracts/DDEX.sol with solc-js and, when run directly (`tsx contracts/build.ts`),
// writes the committed artifact contracts/artifacts/DDEX.json. The unit test
// tests/unit/ddex-artifact.test.ts recompiles with compileDdex() and fails if the committed
// artifact has drifted from the source.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import solc from 'solc';
import type { Abi } from 'viem';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Source unit name of the token; kept relative so nothing depends on where the checkout lives. */
const SOURCE_NAME = 'contracts/DDEX.sol';
const CONTRACT_NAME = 'DDEX';
export const ARTIFACT_PATH = join(here, 'artifacts', 'DDEX.json');

export interface DdexCompilation {
  abi: Abi;
  bytecode: `0x${string}`;
  deployedBytecode: `0x${string}`;
  /** solc's full version string, e.g. 0.8.37+commit.f401782d.Emscripten.clang */
  compiler: string;
}

export interface DdexArtifactFile extends DdexCompilation {
  contractName: typeof CONTRACT_NAME;
}

interface SolcError {
  severity: 'error' | 'warning' | 'info';
  formattedMessage?: string;
  message: string;
}

interface SolcOutput {
  errors?: SolcError[];
  contracts?: Record<
    string,
    Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >;
}

// solc-js ships `any` typings; pin down the two entry points used here.
const compiler = solc as {
  version: () => string;
  compile: (
    input: string,
    callbacks: { import: (path: string) => { contents: string } | { error: string } },
  ) => string;
};

/** Resolves `@openzeppelin/...` (and any other package) imports from node_modules. */
function findImport(path: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') };
  } catch (err) {
    return { error: `cannot resolve import ${path}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function toHex(object: string, what: string): `0x${string}` {
  if (!/^[0-9a-f]+$/.test(object)) throw new Error(`solc produced no ${what} for ${CONTRACT_NAME}`);
  return `0x${object}`;
}

/** Compiles DDEX.sol; throws with solc's formatted messages if the compiler reports any error. */
export function compileDdex(): DdexCompilation {
  const input = {
    language: 'Solidity',
    sources: { [SOURCE_NAME]: { content: readFileSync(join(here, 'DDEX.sol'), 'utf8') } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // Cancun bytecode runs on Hardhat 2.29's default hardfork (osaka) and on current public testnets.
      evmVersion: 'cancun',
      // No metadata hash: the bytes must not depend on file paths or comments' whitespace.
      metadata: { bytecodeHash: 'none' },
      outputSelection: {
        [SOURCE_NAME]: { [CONTRACT_NAME]: ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] },
      },
    },
  };
  const output = JSON.parse(compiler.compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(
      `solc failed to compile ${SOURCE_NAME}:\n${errors.map((e) => e.formattedMessage ?? e.message).join('\n')}`,
    );
  }
  const contract = output.contracts?.[SOURCE_NAME]?.[CONTRACT_NAME];
  if (!contract) throw new Error(`solc output has no ${CONTRACT_NAME} contract in ${SOURCE_NAME}`);
  return {
    abi: contract.abi,
    bytecode: toHex(contract.evm.bytecode.object, 'bytecode'),
    deployedBytecode: toHex(contract.evm.deployedBytecode.object, 'deployed bytecode'),
    compiler: compiler.version(),
  };
}

/** Writes contracts/artifacts/DDEX.json from a fresh compile. */
export function writeDdexArtifact(): DdexArtifactFile {
  const { abi, bytecode, deployedBytecode, compiler: version } = compileDdex();
  const artifact: DdexArtifactFile = {
    contractName: CONTRACT_NAME,
    compiler: version,
    abi,
    bytecode,
    deployedBytecode,
  };
  writeFileSync(ARTIFACT_PATH, `${JSON.stringify(artifact, null, 2)}\n`);
  return artifact;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const artifact = writeDdexArtifact();
  process.stdout.write(
    `wrote ${ARTIFACT_PATH} (${artifact.compiler}, ${(artifact.deployedBytecode.length - 2) / 2} bytes deployed)\n`,
  );
}
