import { erc20Abi, type Address, type Hex } from 'viem';
import type { ChainAccount } from '../../../stack/chain/index.ts';
import { readerOf, walletOf, type ChainInfo } from './chain.ts';
import { compileContract } from './solidity.ts';

// Two DDEX transfers in one transaction on the layer's chain, as a wallet's multicall or a payout
// contract makes them: a batch sender of the test's own moves the caller's DDEX twice.
const TRANSFER_TWICE_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC20 {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

contract TransferTwice {
    function transferTwice(IERC20 token, address to, uint256 first, uint256 second) external {
        require(token.transferFrom(msg.sender, to, first), "first transfer failed");
        require(token.transferFrom(msg.sender, to, second), "second transfer failed");
    }
}
`;

/**
 * Deploys the batch sender from `from`, lets it move 2 × amount, and has it send `amount` DDEX twice
 * to `to` in one transaction; returns that transaction's hash once it is mined successfully.
 */
export async function sendDdexTwiceInOneTransaction(
  chain: ChainInfo,
  from: ChainAccount,
  to: { address: Address },
  amount: bigint,
): Promise<Hex> {
  const publicClient = readerOf(chain);
  const wallet = walletOf(chain, from);
  const compiled = compileContract('TransferTwice', TRANSFER_TWICE_SOURCE);
  const deployed = await publicClient.waitForTransactionReceipt({
    hash: await wallet.deployContract({ ...compiled, chain: null }),
  });
  const batch = deployed.contractAddress;
  if (!batch) throw new Error('the batch sender was not deployed');
  await publicClient.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: chain.tokenAddress,
      abi: erc20Abi,
      functionName: 'approve',
      args: [batch, 2n * amount],
      chain: null,
    }),
  });
  const hash = await wallet.writeContract({
    address: batch,
    abi: compiled.abi,
    functionName: 'transferTwice',
    args: [chain.tokenAddress, to.address, amount, amount],
    chain: null,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error('the batch transfer reverted');
  return hash;
}
