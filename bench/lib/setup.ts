import { join } from 'node:path';
import { buildPortal } from '../../scripts/lib/portal-build.ts';
import { appEnvFor } from '../../stack/app-env.ts';
import { startChain, type Chain } from '../../stack/chain/index.ts';
import { startGateway, type Gateway } from '../../stack/gateway/index.ts';
import type { MockWalletOptions } from '../../tests/support/mock-wallet.ts';
import { buildBarePage } from './bare-page.ts';

// What every portal benchmark stands on: a chain and a gateway of its own on 127.0.0.1, the portal
// built for production against them, and the bare Vite React page built beside it.

export type BenchStack = {
  chain: Chain;
  gateway: Gateway;
  /** The production builds (`vite build` output). */
  portalDir: string;
  bareDir: string;
  /** A wallet of the chain's second account, for the mock wallet. */
  wallet: MockWalletOptions;
};

/** Starts and builds everything under `tempDir`; what must be stopped is pushed to `cleanups`. */
export async function benchStack(
  tempDir: string,
  cleanups: (() => Promise<unknown> | unknown)[],
  step: (text: string) => void,
): Promise<BenchStack> {
  step('starting a chain and a gateway');
  const chain = await startChain({ port: 0, dataDir: join(tempDir, 'stack') });
  cleanups.push(() => chain.close());
  const gateway = await startGateway({
    port: 0,
    dataDir: join(tempDir, 'stack'),
    quietEmail: true,
    tokenAddress: chain.tokenAddress,
    rpcUrl: chain.rpcUrl,
    uniswapRouter: chain.uniswap.router,
    // Every measured page signs in from 127.0.0.1: a limit sized for the runs, not for one person.
    authRateLimit: '1000/60',
  });
  cleanups.push(() => gateway.close());

  step('building the portal and the bare page');
  const portalDir = join(tempDir, 'portal');
  const bareDir = join(tempDir, 'bare');
  await buildPortal(portalDir, appEnvFor(gateway, chain));
  await buildBarePage(bareDir);

  const [viewer] = chain.accounts.slice(1);
  if (!viewer) throw new Error('the chain has no second account');
  const wallet = { rpcUrl: chain.rpcUrl, chainId: chain.chainId, accounts: [viewer.address] };
  return { chain, gateway, portalDir, bareDir, wallet };
}
