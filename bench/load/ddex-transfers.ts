import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  parseUnits,
  type Address,
  type Hex,
} from 'viem';

// Real DDEX transfers for the users' deliveries. process-payments writes every DDEX row from the
// transaction's receipt (the chain's truth), so a delivery naming a transaction the chain never saw
// is answered 503 (retry later), as for a real one the node has not yet: the load must deliver
// transfers that happened. They are mined before the load starts, from the deployer (whose DDEX
// seeded the pool and which no user holds), one DDEX each, and in as few blocks as the block gas
// limit allows (automining paused meanwhile), so that the stack's Tatum watcher reads a few blocks
// rather than one per transfer during the load: the load measures the deliveries, not the chain.
// The node unlocks its test accounts, so no key is needed here.

export const DDEX_PER_TRANSFER = '1';

export async function mineDdexTransfers(options: {
  rpcUrl: string;
  tokenAddress: string;
  from: string;
  wallets: readonly string[];
  perWallet: number;
}): Promise<Map<string, Hex[]>> {
  const client = createWalletClient({ account: options.from as Address, transport: http(options.rpcUrl) });
  const node = createPublicClient({ transport: http(options.rpcUrl) });
  const amount = parseUnits(DDEX_PER_TRANSFER, 18);
  const mined = new Map<string, Hex[]>(options.wallets.map((wallet) => [wallet, []]));
  const hardhat = (method: string, params: unknown[] = []) =>
    node.request({ method, params } as never) as Promise<unknown>;
  await hardhat('evm_setAutomine', [false]);
  try {
    const last = await sendAll(client, options, amount, mined);
    // Each block takes what fits under its gas limit; mine until the last transfer is in one.
    while (last !== null && !(await node.getTransactionReceipt({ hash: last }).catch(() => null))) {
      await hardhat('evm_mine');
    }
  } finally {
    await hardhat('evm_setAutomine', [true]);
  }
  return mined;
}

async function sendAll(
  client: ReturnType<typeof createWalletClient>,
  options: { tokenAddress: string; wallets: readonly string[]; perWallet: number; from: string },
  amount: bigint,
  mined: Map<string, Hex[]>,
): Promise<Hex | null> {
  let last: Hex | null = null;
  // The node counts the pending transfers in the sender's next nonce, so each waits its turn here.
  for (let round = 0; round < options.perWallet; round++) {
    for (const wallet of options.wallets) {
      const hash = await client.writeContract({
        account: options.from as Address,
        address: options.tokenAddress as Address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [wallet as Address, amount],
        // The pending state would run out of gas estimates as the block fills: a transfer's worth.
        gas: 60_000n,
        chain: null,
      });
      mined.get(wallet)?.push(hash);
      last = hash;
    }
  }
  return last;
}
