import { erc20Abi, type Hex } from 'viem';
import type { ChainAccount } from '../../../stack/chain/index.ts';
import { readerOf, walletOf, type ChainInfo } from './chain.ts';
import { swapDeadline, type Market } from './market.ts';
import { compileContract } from './solidity.ts';

// Two swaps on a Uniswap V2 pair in one transaction, as a trading contract or a wallet's multicall
// makes them: a contract of the test's own sells the caller's DDEX through the router and buys
// DDEX back with part of the WETH it got, for the caller, in the same call.
const SELL_AND_BUY_BACK_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC20 {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function approve(address spender, uint256 value) external returns (bool);
}

interface IRouter {
    function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] calldata path,
        address to, uint256 deadline) external returns (uint256[] memory amounts);
}

contract SellAndBuyBack {
    function sellAndBuyBack(IRouter router, IERC20 ddex, IERC20 weth, uint256 ddexIn, uint256 backBps,
        uint256 deadline) external {
        require(ddex.transferFrom(msg.sender, address(this), ddexIn), "pull failed");
        require(ddex.approve(address(router), ddexIn), "approve failed");
        address[] memory path = new address[](2);
        path[0] = address(ddex);
        path[1] = address(weth);
        uint256[] memory sold = router.swapExactTokensForTokens(ddexIn, 0, path, address(this), deadline);
        uint256 back = sold[1] * backBps / 10000;
        require(weth.approve(address(router), back), "approve failed");
        path[0] = address(weth);
        path[1] = address(ddex);
        router.swapExactTokensForTokens(back, 0, path, msg.sender, deadline);
    }
}
`;

export type SellAndBuyBack = {
  /**
   * Sells `ddex` (smallest unit) of `from`'s DDEX for WETH and buys DDEX back for `from` with
   * `backBps` / 10,000 of that WETH, in one transaction: two Swap logs of the pair. Its hash once
   * it is mined successfully.
   */
  trade(ddex: bigint, backBps: bigint): Promise<Hex>;
};

/** Deploys the contract from `from` on `market` and lets it move all of `from`'s DDEX. */
export async function sellAndBuyBack(
  chain: ChainInfo,
  market: Market,
  from: ChainAccount,
): Promise<SellAndBuyBack> {
  const publicClient = readerOf(chain);
  const wallet = walletOf(chain, from);
  const compiled = compileContract('SellAndBuyBack', SELL_AND_BUY_BACK_SOURCE);
  const deployed = await publicClient.waitForTransactionReceipt({
    hash: await wallet.deployContract({ ...compiled, chain: null }),
  });
  const contract = deployed.contractAddress;
  if (!contract) throw new Error('the sell-and-buy-back contract was not deployed');
  await publicClient.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: chain.tokenAddress,
      abi: erc20Abi,
      functionName: 'approve',
      args: [contract, 2n ** 256n - 1n],
      chain: null,
    }),
  });
  return {
    async trade(ddex, backBps) {
      const hash = await wallet.writeContract({
        address: contract,
        abi: compiled.abi,
        functionName: 'sellAndBuyBack',
        args: [market.router, chain.tokenAddress, market.weth, ddex, backBps, await swapDeadline(chain)],
        chain: null,
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error('the sell and buy-back reverted');
      return hash;
    },
  };
}
