import solc from 'solc';
import type { Abi, Hex } from 'viem';

// A contract a test deploys for itself (a batch sender, a smart-contract wallet, a trader that
// swaps and swaps back), compiled from its source with solc-js as contracts/build.ts compiles DDEX.

type SolcOutput = {
  errors?: { severity: string; formattedMessage?: string; message: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
};

/** The ABI and bytecode of contract `name` in `source`; throws with solc's messages on any error. */
export function compileContract(name: string, source: string): { abi: Abi; bytecode: Hex } {
  const file = `${name}.sol`;
  const compile = (solc as { compile: (input: string) => string }).compile;
  const output = JSON.parse(
    compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { [file]: { content: source } },
        settings: {
          evmVersion: 'cancun',
          outputSelection: { [file]: { [name]: ['abi', 'evm.bytecode.object'] } },
        },
      }),
    ),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage ?? e.message).join('\n'));
  const contract = output.contracts?.[file]?.[name];
  if (!contract) throw new Error(`solc produced no ${name}`);
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}
