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
import {
  ACCOUNT_COUNT,
  createHardhatProvider,
  HARDHAT_MNEMONIC,
  LOCAL_CHAIN_ID,
  serveJsonRpc,
} from './hardhat.ts';
import { journaled, replayJournal } from './journal.ts';

// The local chain: a Hardhat 2 node on 127.0.0.1 with DDEX deployed on first
// start and its state kept across restarts by the journal.

export type ChainAccount = { address: Address; privateKey: Hex };

export type Chain = {
  rpcUrl: string;
  chainId: number;
  tokenAddress: Address;
  accounts: ChainAccount[];
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

  const hardhat = await createHardhatProvider();
  await replayJournal(hardhat, journalPath);
  const provider = journaled(hardhat, journalPath);
  const accounts = testAccounts();
  const [deployer] = accounts;
  if (!deployer) throw new Error('no deployer account');

  const transport = custom(provider);
  const publicClient = createPublicClient({ transport });
  let tokenAddress = readDeployment(deploymentPath);
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
    writeFileSync(deploymentPath, `${JSON.stringify({ tokenAddress }, null, 2)}\n`);
  }

  const server = await serveJsonRpc(provider, options.port);
  return {
    rpcUrl: `http://127.0.0.1:${server.port}`,
    chainId: LOCAL_CHAIN_ID,
    tokenAddress,
    accounts,
    close: () => server.close(),
  };
}

function readDeployment(path: string): Address | null {
  if (!existsSync(path)) return null;
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { tokenAddress?: unknown };
  return typeof parsed.tokenAddress === 'string' && /^0x[0-9a-fA-F]{40}$/.test(parsed.tokenAddress)
    ? (parsed.tokenAddress as Address)
    : null;
}
