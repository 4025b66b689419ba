import { createWalletClient, erc20Abi, http, parseUnits, type Address, type Hex } from 'viem';

// Real DDEX transfers for the users' deliveries. process-payments writes every DDEX row from the
// transaction's receipt (the chain's truth), so a delivery naming a transaction the chain never saw
// is answered 503 (retry later), as for a real one the node has not yet: the load must deliver
// transfers that happened. They are mined before the load starts, from the deployer (whose DDEX
// seeded the pool and which no user holds), one DDEX each, so the load measures the deliveries,
// not the chain. The node unlocks its test accounts, so no key is needed here.

export const DDEX_PER_TRANSFER = '1';

export async function mineDdexTransfers(options: {
  rpcUrl: string;
  tokenAddress: string;
  from: string;
  wallets: readonly string[];
  perWallet: number;
}): Promise<Map<string, Hex[]>> {
  const client = createWalletClient({ account: options.from as Address, transport: http(options.rpcUrl) });
  const amount = parseUnits(DDEX_PER_TRANSFER, 18);
  const mined = new Map<string, Hex[]>(options.wallets.map((wallet) => [wallet, []]));
  for (let round = 0; round < options.perWallet; round++) {
    for (const wallet of options.wallets) {
      const hash = await client.writeContract({
        address: options.tokenAddress as Address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [wallet as Address, amount],
        chain: null,
      });
      mined.get(wallet)?.push(hash);
    }
  }
  return mined;
}
