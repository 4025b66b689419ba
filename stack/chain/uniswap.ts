import { createRequire } from 'node:module';
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  maxUint256,
  parseEther,
  parseUnits,
  zeroAddress,
  type Abi,
  type Address,
  type Hash,
  type Hex,
  type Transport,
} from 'viem';
import {
  deployContract,
  getCode,
  readContract,
  waitForTransactionReceipt,
  writeContract,
} from 'viem/actions';
import { erc20Abi, factoryAbi } from '../../src/services/dex/abi.ts';

// The DDEX/WETH market of the local chain: Uniswap V2 as published on npm (factory and pair from
// @uniswap/v2-core 1.0.1, UniswapV2Router02 and WETH9 from @uniswap/v2-periphery 1.1.0-beta.0),
// deployed from the packages' own bytecode, with no AMM of ours. The router finds pairs by CREATE2
// with the init code hash compiled into it (0x96e8…845f), which is the keccak of the pair's bytecode
// in v2-core 1.0.1: tests/contract/dex.test.ts holds the two together.

export type UniswapDeployment = { router: Address; factory: Address; weth: Address; pair: Address };

/**
 * The pool the stack seeds: 100 ETH against 500,000 DDEX, so 1 DDEX = 0.0002 ETH (5,000 DDEX per
 * ETH). 100 ETH is deep enough that the tests' swaps of a fraction of an ETH barely move the price,
 * and shallow enough that a swap of a few ETH moves it visibly on the chart (2 ETH: about 2.3 %
 * price impact, the mid price up about 4 %). Half of the deployer's DDEX, so it keeps some.
 */
export const SEED_ETH = parseEther('100');
export const SEED_DDEX = parseUnits('500000', 18);

type Artifact = { abi: Abi; bytecode: Hex };
export type UniswapContract = 'WETH9' | 'UniswapV2Factory' | 'UniswapV2Router02' | 'UniswapV2Pair';

const require = createRequire(import.meta.url);
const ARTIFACTS: Record<UniswapContract, string> = {
  WETH9: '@uniswap/v2-periphery/build/WETH9.json',
  UniswapV2Factory: '@uniswap/v2-core/build/UniswapV2Factory.json',
  UniswapV2Router02: '@uniswap/v2-periphery/build/UniswapV2Router02.json',
  UniswapV2Pair: '@uniswap/v2-core/build/UniswapV2Pair.json',
};

/** A contract's ABI and creation bytecode, as its npm package publishes them (bytecode without 0x). */
export function uniswapArtifact(name: UniswapContract): Artifact {
  const { abi, bytecode } = require(ARTIFACTS[name]) as { abi: Abi; bytecode: string };
  return { abi, bytecode: `0x${bytecode.replace(/^0x/, '')}` };
}

// Calls only the stack makes, so they stay out of the app's ABIs.
const createPairAbi = [
  {
    type: 'function',
    name: 'createPair',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'tokenA', type: 'address' },
      { name: 'tokenB', type: 'address' },
    ],
    outputs: [{ name: 'pair', type: 'address' }],
  },
] as const;
const addLiquidityEthAbi = [
  {
    type: 'function',
    name: 'addLiquidityETH',
    stateMutability: 'payable',
    inputs: [
      { name: 'token', type: 'address' },
      { name: 'amountTokenDesired', type: 'uint256' },
      { name: 'amountTokenMin', type: 'uint256' },
      { name: 'amountETHMin', type: 'uint256' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [
      { name: 'amountToken', type: 'uint256' },
      { name: 'amountETH', type: 'uint256' },
      { name: 'liquidity', type: 'uint256' },
    ],
  },
] as const;

/**
 * Deploys WETH9, the factory (fee switch held by the deployer) and the router, creates the
 * DDEX/WETH pair and adds the seed liquidity from `deployer`, an account the node unlocks. Every
 * call goes through `transport`, the journaled provider, so the market survives restarts. `seed`
 * sets another opening price (the contract tests' markets of their own, priced apart from the
 * stack's pool).
 */
export async function deployUniswap(
  transport: Transport,
  deployer: Address,
  token: Address,
  seed: { eth: bigint; ddex: bigint } = { eth: SEED_ETH, ddex: SEED_DDEX },
): Promise<UniswapDeployment> {
  const reads = createPublicClient({ transport });
  const wallet = createWalletClient({ account: deployer, transport });
  const mined = async (what: string, hash: Hash) => {
    const receipt = await waitForTransactionReceipt(reads, { hash });
    if (receipt.status !== 'success') throw new Error(`Uniswap V2 deployment: ${what} reverted (${hash})`);
    return receipt;
  };
  const deploy = async (name: UniswapContract, args: readonly unknown[]) => {
    const { abi, bytecode } = uniswapArtifact(name);
    const hash = await deployContract(wallet, { abi, bytecode, args, chain: null });
    const { contractAddress } = await mined(`deploying ${name}`, hash);
    if (!contractAddress) throw new Error(`Uniswap V2 deployment: ${name} has no address (${hash})`);
    return getAddress(contractAddress);
  };

  const weth = await deploy('WETH9', []);
  const factory = await deploy('UniswapV2Factory', [deployer]);
  const router = await deploy('UniswapV2Router02', [factory, weth]);
  await mined(
    'createPair',
    await writeContract(wallet, {
      address: factory,
      abi: createPairAbi,
      functionName: 'createPair',
      args: [token, weth],
      chain: null,
    }),
  );
  const pair = await readContract(reads, {
    address: factory,
    abi: factoryAbi,
    functionName: 'getPair',
    args: [token, weth],
  });
  if (pair === zeroAddress) throw new Error('Uniswap V2 deployment: the factory names no DDEX/WETH pair');
  await mined(
    'approving the router',
    await writeContract(wallet, {
      address: token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [router, seed.ddex],
      chain: null,
    }),
  );
  // No deadline: the seed is replayed from the journal, and must pass whenever that happens.
  await mined(
    'adding the seed liquidity',
    await writeContract(wallet, {
      address: router,
      abi: addLiquidityEthAbi,
      functionName: 'addLiquidityETH',
      args: [token, seed.ddex, seed.ddex, seed.eth, deployer, maxUint256],
      value: seed.eth,
      chain: null,
    }),
  );
  return { router, factory, weth, pair: getAddress(pair) };
}

/** Whether every contract of a recorded market is on the chain (its journal was kept). */
export async function uniswapDeployed(transport: Transport, market: UniswapDeployment): Promise<boolean> {
  const reads = createPublicClient({ transport });
  const codes = await Promise.all(
    [market.router, market.factory, market.weth, market.pair].map((address) => getCode(reads, { address })),
  );
  return codes.every(Boolean);
}
