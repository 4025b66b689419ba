import { createPublicClient, erc20Abi, http } from 'viem';
import { e2e } from './context.ts';

/** An account's DDEX balance on the e2e chain, in the token's smallest unit, read from the node. */
export async function tokenBalance(address: `0x${string}`): Promise<bigint> {
  const { rpcUrl, tokenAddress } = e2e().chain;
  const reader = createPublicClient({ transport: http(rpcUrl) });
  return reader.readContract({
    address: tokenAddress,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  });
}
