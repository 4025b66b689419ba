// The DDEX token: the committed artifact must match a fresh solc-js compile of contracts/DDEX.sol,
// expose the ERC-20 surface the portal calls, and behave as an ERC-20 on an in-process Hardhat network.
import { fileURLToPath } from 'node:url';
import { resolveConfig } from 'hardhat/internal/core/config/config-resolution.js';
import { createProvider } from 'hardhat/internal/core/providers/construction.js';
import type { EthereumProvider } from 'hardhat/types';
import {
  type AbiEvent,
  type AbiFunction,
  type AbiParameter,
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  decodeErrorResult,
  encodeDeployData,
  erc20Abi,
  parseEventLogs,
  parseUnits,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddexArtifact } from '../../contracts/artifact.ts';
import { compileDdex, type DdexCompilation } from '../../contracts/build.ts';

const TIMEOUT = 60_000;
const { abi, bytecode, deployedBytecode } = ddexArtifact;

describe('DDEX artifact', () => {
  let fresh: DdexCompilation;

  beforeAll(() => {
    fresh = compileDdex();
  }, TIMEOUT);

  it('matches a fresh compile of contracts/DDEX.sol (run `tsx contracts/build.ts` if this fails)', () => {
    expect({
      contractName: ddexArtifact.contractName,
      abi: ddexArtifact.abi,
      bytecode: ddexArtifact.bytecode,
      deployedBytecode: ddexArtifact.deployedBytecode,
      compiler: ddexArtifact.compiler,
    }).toEqual({ contractName: 'DDEX', ...fresh });
  });

  it(
    'compiles deterministically',
    () => {
      expect(compileDdex()).toEqual(fresh);
    },
    TIMEOUT,
  );
});

// Types of a parameter list, with `indexed` for event parameters; names are free to differ.
const shape = (params: readonly AbiParameter[]) =>
  params.map((p) => ({ type: p.type, indexed: 'indexed' in p ? p.indexed : undefined }));

describe('DDEX ABI', () => {
  // viem's erc20Abi is the reference the portal reads tokens with; each item the portal uses must be
  // present in the DDEX ABI with the same inputs, outputs and mutability, so encodings agree.
  it.each(['name', 'symbol', 'decimals', 'balanceOf', 'transfer'])('has ERC-20 function %s', (name) => {
    const reference = erc20Abi.find((item) => item.type === 'function' && item.name === name) as AbiFunction;
    const matches = abi.filter((item): item is AbiFunction => item.type === 'function' && item.name === name);
    expect(matches).toHaveLength(1);
    const [fn] = matches as [AbiFunction];
    expect(shape(fn.inputs)).toEqual(shape(reference.inputs));
    expect(shape(fn.outputs)).toEqual(shape(reference.outputs));
    expect(fn.stateMutability).toBe(reference.stateMutability);
  });

  it('has the ERC-20 Transfer event', () => {
    const reference = erc20Abi.find((item) => item.type === 'event' && item.name === 'Transfer') as AbiEvent;
    const matches = abi.filter((item): item is AbiEvent => item.type === 'event' && item.name === 'Transfer');
    expect(matches).toHaveLength(1);
    const [event] = matches as [AbiEvent];
    expect(shape(event.inputs)).toEqual(shape(reference.inputs));
    expect(event.anonymous ?? false).toBe(false);
  });

  it('takes (address[] holders, uint256 amountEach) in its constructor', () => {
    const ctor = abi.find((item) => item.type === 'constructor');
    expect(ctor && shape(ctor.inputs)).toEqual(shape([{ type: 'address[]' }, { type: 'uint256' }]));
  });
});

describe('DDEX on an in-process Hardhat network', () => {
  let provider: EthereumProvider;
  let publicClient: PublicClient;
  let walletClient: WalletClient;
  let accounts: Address[];

  beforeAll(async () => {
    // Hardhat 2's own defaults for the `hardhat` network (chainId 31337, default hardfork, the
    // `test … junk` mnemonic accounts), resolved without a config file.
    const config = resolveConfig(fileURLToPath(import.meta.url), {});
    provider = await createProvider(config, 'hardhat');
    // Hardhat reports reverts as JSON-RPC internal errors, which viem would otherwise retry.
    const transport = custom(provider, { retryCount: 0 });
    publicClient = createPublicClient({ chain: hardhat, transport });
    walletClient = createWalletClient({ chain: hardhat, transport });
    accounts = await walletClient.getAddresses();
  }, TIMEOUT);

  afterAll(async () => {
    await provider?.request({ method: 'hardhat_reset', params: [] });
  });

  async function deploy(holders: Address[], amountEach: bigint): Promise<Address> {
    const [deployer] = accounts as [Address];
    const hash = await walletClient.deployContract({
      abi,
      bytecode,
      args: [holders, amountEach],
      account: deployer,
      chain: hardhat,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    if (!receipt.contractAddress) throw new Error('deployment receipt has no contract address');
    return receipt.contractAddress;
  }

  /** Simulates the constructor and returns the name of the custom error it reverts with. */
  async function constructorError(holders: Address[], amountEach: bigint): Promise<string> {
    const data = encodeDeployData({ abi, bytecode, args: [holders, amountEach] });
    try {
      await publicClient.call({ account: accounts[0], data });
    } catch (err) {
      let cause: unknown = err;
      while (cause instanceof Error) {
        if ('data' in cause && typeof cause.data === 'string' && cause.data.startsWith('0x')) {
          return decodeErrorResult({ abi, data: cause.data as `0x${string}` }).errorName;
        }
        cause = cause.cause;
      }
      throw err;
    }
    throw new Error('constructor did not revert');
  }

  it('runs on chain 31337 with Hardhat’s default test accounts', async () => {
    expect(await publicClient.getChainId()).toBe(31337);
    const mnemonic = 'test test test test test test test test test test test junk';
    expect(accounts.slice(0, 3)).toEqual(
      [0, 1, 2].map((addressIndex) => mnemonicToAccount(mnemonic, { addressIndex }).address),
    );
  });

  it(
    'deploys with name, symbol, decimals and a mint to each holder',
    async () => {
      const [deployer, alice, bob] = accounts as [Address, Address, Address];
      const amountEach = parseUnits('1000', 18);
      const address = await deploy([alice, bob], amountEach);

      // No immutables: the code on chain is exactly the committed runtime bytecode.
      expect(await publicClient.getCode({ address })).toBe(deployedBytecode);
      const read = (functionName: string, args: readonly unknown[] = []) =>
        publicClient.readContract({ address, abi, functionName, args });
      expect(await read('name')).toBe('DDEX');
      expect(await read('symbol')).toBe('DDEX');
      expect(await read('decimals')).toBe(18);
      expect(await read('balanceOf', [alice])).toBe(amountEach);
      expect(await read('balanceOf', [bob])).toBe(amountEach);
      expect(await read('balanceOf', [deployer])).toBe(0n);
      expect(await read('totalSupply')).toBe(2n * amountEach);
    },
    TIMEOUT,
  );

  it(
    'transfers tokens and emits Transfer',
    async () => {
      const [, alice, bob, carol] = accounts as [Address, Address, Address, Address];
      const amountEach = parseUnits('1000', 18);
      const address = await deploy([alice, bob], amountEach);
      const value = parseUnits('250.5', 18);

      const hash = await walletClient.writeContract({
        address,
        abi,
        functionName: 'transfer',
        args: [carol, value],
        account: alice,
        chain: hardhat,
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      const transfers = parseEventLogs({ abi, logs: receipt.logs, eventName: 'Transfer' });
      expect(transfers).toHaveLength(1);
      expect(transfers[0]?.address).toBe(address.toLowerCase());
      expect(transfers[0]?.args).toEqual({ from: alice, to: carol, value });

      const balanceOf = (account: Address) =>
        publicClient.readContract({ address, abi, functionName: 'balanceOf', args: [account] });
      expect(await balanceOf(alice)).toBe(amountEach - value);
      expect(await balanceOf(carol)).toBe(value);
      expect(await balanceOf(bob)).toBe(amountEach);
    },
    TIMEOUT,
  );

  it(
    'rejects an empty holder list and a zero amount with custom errors',
    async () => {
      const [, alice] = accounts as [Address, Address];
      expect(await constructorError([], 1n)).toBe('DDEXNoHolders');
      expect(await constructorError([alice], 0n)).toBe('DDEXZeroAmount');
    },
    TIMEOUT,
  );
});
