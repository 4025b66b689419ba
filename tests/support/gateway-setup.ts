import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startChain, type Chain, type ChainAccount } from '../../stack/chain/index.ts';
import { startGateway } from '../../stack/gateway/index.ts';
import { settleExitCode } from './exit-code.ts';
import { hashPasswordsCheaply } from './password-hashing.ts';
import { TEST_AUTH_RATE_LIMIT } from './stack/auth-limit.ts';

// Starts the local stack as `npm run stack` does (a chain with DDEX, then the
// gateway watching it) with empty data on free ports for the contract tests,
// and removes it and its data afterwards.
//
// Test files run in parallel against one chain, so each file that sends
// transactions uses its own accounts (see tests/support/stack/accounts.ts) and never
// races another file for a nonce or a balance.
export default async function setup(project: TestProject) {
  hashPasswordsCheaply();
  const dataDir = mkdtempSync(join(tmpdir(), 'ddex-contract-'));
  const chain = await startChain({ port: 0, dataDir });
  const gateway = await startGateway({
    port: 0,
    dataDir,
    quietEmail: true,
    tokenAddress: chain.tokenAddress,
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    uniswapRouter: chain.uniswap.router,
    authRateLimit: TEST_AUTH_RATE_LIMIT,
    faucetPrivateKey: chain.faucet.privateKey,
  });
  if (!gateway.tatumApiUrl) throw new Error('the gateway started without its Tatum emulator');
  project.provide('gateway', {
    url: gateway.url,
    anonKey: gateway.anonKey,
    serviceRoleKey: gateway.serviceRoleKey,
    webhookSecret: gateway.webhookSecret,
    tatumApiUrl: gateway.tatumApiUrl,
    tatumApiKey: gateway.tatumApiKey,
    functions: gateway.functions,
  });
  project.provide('chain', {
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    tokenAddress: chain.tokenAddress,
    uniswap: chain.uniswap,
    accounts: chain.accounts,
  });
  return async () => {
    await gateway.close();
    await chain.close();
    settleExitCode(project);
    rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    gateway: {
      url: string;
      anonKey: string;
      serviceRoleKey: string;
      webhookSecret: string;
      tatumApiUrl: string;
      /** What the Tatum emulator requires as x-api-key; the functions hold it as TATUM_API_KEY. */
      tatumApiKey: string;
      functions: { runtime: 'deno' | 'node'; urls: Record<string, string> };
    };
    chain: {
      rpcUrl: string;
      chainId: number;
      tokenAddress: `0x${string}`;
      /** The Uniswap V2 market the chain deploys: router, factory, WETH and the DDEX/WETH pair. */
      uniswap: Chain['uniswap'];
      accounts: ChainAccount[];
    };
  }
}
