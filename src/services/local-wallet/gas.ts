import type { Address, Hex, PublicClient } from 'viem';

// A new local test wallet holds no ETH (nor does one after the chain was started afresh), and
// every transaction needs gas. The local chain's node
// (Hardhat) holds its test accounts unlocked and sends from them on request, as Scaffold-ETH's
// local faucet does: the last of them is the stack's faucet account (stack/chain/hardhat.ts
// FAUCET_ACCOUNT_INDEX), which pays the new wallet a little ETH, as a real transfer that the
// history and the balances show. DDEX comes from the faucet function once the person signed in.

export const FIRST_USE_GAS_WEI = 10n ** 18n;

/** Pays `to` FIRST_USE_GAS_WEI from the node's faucet account and waits until it is mined. */
export async function fundWithGas(node: PublicClient, to: Address): Promise<Hex> {
  const accounts = (await node.request({ method: 'eth_accounts' } as never)) as Address[];
  const faucet = accounts.at(-1);
  if (!faucet) throw new Error('The local chain holds no unlocked account to pay gas from.');
  const hash = (await node.request({
    method: 'eth_sendTransaction',
    params: [{ from: faucet, to, value: `0x${FIRST_USE_GAS_WEI.toString(16)}` }],
  } as never)) as Hex;
  await node.waitForTransactionReceipt({ hash });
  return hash;
}
