import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChain, type Chain } from '../../../stack/chain/index.ts';
import { startGateway, type Gateway, type GatewayOptions } from '../../../stack/gateway/index.ts';
import { TEST_AUTH_RATE_LIMIT } from './auth-limit.ts';

// A stack of one contract test file's own, for what the shared one (tests/support/gateway-setup.ts)
// cannot be: tokens signed with its JWT secret, a chain to rewind, functions that reach Tatum
// through a proxy, limits of its own. It runs on free ports with its data in a fresh temporary
// folder and emails kept in memory, and one close() stops all of it and removes the folder, so each
// file says only how its stack differs.

/** How a file's gateway differs from the default: all of startGateway's options but where it lives. */
export type OwnGatewayOptions = Omit<GatewayOptions, 'port' | 'dataDir' | 'fresh' | 'quietEmail'>;

/** A chain of the file's own and the gateway watching it; close() stops both and removes their data. */
export type OwnStack = { chain: Chain; gateway: Gateway; close(): Promise<void> };

/** A fresh folder for the data of the file's stack, named after it (ddex-<name>-…). */
function freshDataDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `ddex-${name}-`));
}

function removeDataDir(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
}

function startGatewayIn(dataDir: string, options: OwnGatewayOptions): Promise<Gateway> {
  return startGateway({
    port: 0,
    dataDir,
    quietEmail: true,
    authRateLimit: TEST_AUTH_RATE_LIMIT,
    ...options,
  });
}

/**
 * A gateway of the file's own, on the shared chain when `options` name it (rpcUrl, chainId, …) or
 * on none; its close() also removes its data.
 */
export async function startOwnGateway(name: string, options: OwnGatewayOptions = {}): Promise<Gateway> {
  const dataDir = freshDataDir(name);
  let gateway: Gateway;
  try {
    gateway = await startGatewayIn(dataDir, options);
  } catch (error) {
    removeDataDir(dataDir);
    throw error;
  }
  return {
    ...gateway,
    close: async () => {
      await gateway.close();
      removeDataDir(dataDir);
    },
  };
}

/**
 * A chain of the file's own, as `npm run stack` starts it, and a gateway on it: `gatewayOptions`
 * says what the gateway takes of the chain (its node, DDEX contract, chain id) and what else.
 */
export async function startOwnStack(
  name: string,
  gatewayOptions: (chain: Chain) => OwnGatewayOptions,
): Promise<OwnStack> {
  const dataDir = freshDataDir(name);
  let chain: Chain | undefined;
  let gateway: Gateway;
  try {
    chain = await startChain({ port: 0, dataDir });
    gateway = await startGatewayIn(dataDir, gatewayOptions(chain));
  } catch (error) {
    await chain?.close();
    removeDataDir(dataDir);
    throw error;
  }
  const started = chain;
  return {
    chain: started,
    gateway,
    close: async () => {
      await gateway.close();
      await started.close();
      removeDataDir(dataDir);
    },
  };
}
