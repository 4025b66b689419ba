import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  custom,
  parseUnits,
  toHex,
  type Address,
  type Hex,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { deployContract, getCode, waitForTransactionReceipt } from 'viem/actions';
import { ddexArtifact } from '../../contracts/artifact.ts';
import { isAddress } from '../address.ts';
import {
  ACCOUNT_COUNT,
  createHardhatProvider,
  FAUCET_ACCOUNT_INDEX,
  HARDHAT_MNEMONIC,
  LOCAL_CHAIN_ID,
  serveJsonRpc,
} from './hardhat.ts';
import { readJournal } from './journal-file.ts';
import { journaled, journalGenesis, replayEntries } from './journal.ts';
import { deployUniswap, uniswapDeployed, type UniswapDeployment } from './uniswap.ts';

// The local chain: a Hardhat 2 node on 127.0.0.1 with DDEX and its Uniswap V2
// market deployed on first start and its state kept across restarts by the journal.

export type ChainAccount = { address: Address; privateKey: Hex };

export type Chain = {
  rpcUrl: string;
  chainId: number;
  tokenAddress: Address;
  /** The DDEX/WETH market (stack/chain/uniswap.ts). */
  uniswap: UniswapDeployment;
  accounts: ChainAccount[];
  /** The account the faucet pays from (one of `accounts`, used by nothing else). */
  faucet: ChainAccount;
  close(): Promise<void>;
};

export type ChainOptions = { port: number; dataDir: string; fresh?: boolean };

// The node's test accounts (all it unlocks, see hardhat.ts): public keys for testnets, never real funds.
const INITIAL_DDEX_PER_HOLDER = parseUnits('1000000', 18);

export function testAccounts(count = ACCOUNT_COUNT): ChainAccount[] {
  return Array.from({ length: count }, (_, addressIndex) => {
    const account = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex });
    const key = account.getHdKey().privateKey;
    if (!key) throw new Error('the test mnemonic yielded no private key');
    return { address: account.address, privateKey: toHex(key) };
  });
}

export async function startChain(options: ChainOptions): Promise<Chain> {
  const dir = join(options.dataDir, 'chain');
  if (options.fresh) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const journalPath = join(dir, 'journal.jsonl');
  const deploymentPath = join(dir, 'deployment.json');

  const entries = readJournal(journalPath, console);
  const hardhat = await createHardhatProvider({ genesis: journalGenesis(entries) });
  await replayEntries(hardhat, entries);
  const provider = journaled(hardhat, journalPath);
  const accounts = testAccounts();
  const [deployer] = accounts;
  if (!deployer) throw new Error('no deployer account');
  const faucet = accounts[FAUCET_ACCOUNT_INDEX];
  if (!faucet) throw new Error('no faucet account');

  const transport = custom(provider);
  const publicClient = createPublicClient({ transport });
  const recorded = readDeployment(deploymentPath);
  let { tokenAddress, uniswap } = recorded;
  if (!tokenAddress || !(await getCode(publicClient, { address: tokenAddress }))) {
    const wallet = createWalletClient({ account: deployer.address, transport });
    const hash = await deployContract(wallet, {
      abi: ddexArtifact.abi,
      bytecode: ddexArtifact.bytecode,
      args: [accounts.map((a) => a.address), INITIAL_DDEX_PER_HOLDER],
      chain: null,
    });
    const receipt = await waitForTransactionReceipt(publicClient, { hash });
    if (!receipt.contractAddress) throw new Error('DDEX deployment returned no contract address');
    tokenAddress = receipt.contractAddress;
    uniswap = null;
  }
  // A deployment file from before the market existed has only the token: the market is added then.
  if (!uniswap || !(await uniswapDeployed(transport, uniswap))) {
    uniswap = await deployUniswap(transport, deployer.address, tokenAddress);
  }
  if (tokenAddress !== recorded.tokenAddress || uniswap !== recorded.uniswap) {
    writeFileSync(deploymentPath, `${JSON.stringify({ tokenAddress, uniswap }, null, 2)}\n`);
  }

  const server = await serveJsonRpc(provider, options.port);
  return {
    rpcUrl: `http://127.0.0.1:${server.port}`,
    chainId: LOCAL_CHAIN_ID,
    tokenAddress,
    uniswap,
    accounts,
    faucet,
    close: () => server.close(),
  };
}

type Deployment = { tokenAddress: Address | null; uniswap: UniswapDeployment | null };

function readDeployment(path: string): Deployment {
  if (!existsSync(path)) return { tokenAddress: null, uniswap: null };
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { tokenAddress?: unknown; uniswap?: unknown };
  const market = (parsed.uniswap ?? {}) as Partial<Record<keyof UniswapDeployment, unknown>>;
  const { router, factory, weth, pair } = market;
  return {
    tokenAddress: isAddress(parsed.tokenAddress) ? parsed.tokenAddress : null,
    uniswap:
      isAddress(router) && isAddress(factory) && isAddress(weth) && isAddress(pair)
        ? { router, factory, weth, pair }
        : null,
  };
}
