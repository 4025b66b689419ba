import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// Hardhat 2 has no programmatic node API; these are the internals its own
// `hardhat node` task uses (pinned by the exact hardhat version in
// package.json). Resolving the default config gives chain id 31337 and the
// default test mnemonic without a hardhat.config file.

export type Eip1193Provider = {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
};

type JsonRpcServer = {
  listen(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
};

type HardhatInternals = {
  resolveConfig(path: string, config: object): { networks: { hardhat: object } };
  createProvider(config: object, network: string): Promise<Eip1193Provider>;
  JsonRpcServer: new (config: { hostname: string; port: number; provider: Eip1193Provider }) => JsonRpcServer;
};

const require = createRequire(import.meta.url);

function internals(): HardhatInternals {
  const { resolveConfig } = require('hardhat/internal/core/config/config-resolution') as HardhatInternals;
  const { createProvider } = require('hardhat/internal/core/providers/construction') as HardhatInternals;
  const { JsonRpcServer } = require('hardhat/internal/hardhat-network/jsonrpc/server') as HardhatInternals;
  return { resolveConfig, createProvider, JsonRpcServer };
}

export const HARDHAT_MNEMONIC = 'test test test test test test test test test test test junk';
export const LOCAL_CHAIN_ID = 31337;
/**
 * Accounts the node unlocks and funds from the mnemonic: Hardhat's 20, 24 more so each test file
 * that sends or links a wallet has accounts of its own, and the faucet's.
 */
export const ACCOUNT_COUNT = 45;

/** The account the local faucet pays from (FAUCET_PRIVATE_KEY): no test and no user sends from it. */
export const FAUCET_ACCOUNT_INDEX = 44;

/**
 * `genesis`: the time of the first block, for a replay that keeps the journal's block times (its
 * blocks must come after it); the node's clock then runs from there until a block moves it.
 */
export async function createHardhatProvider(options: { genesis?: Date } = {}): Promise<Eip1193Provider> {
  process.env['HARDHAT_DISABLE_TELEMETRY_PROMPT'] = 'true';
  const hardhat = internals();
  // resolveConfig anchors project paths on an existing file; nothing is read from it.
  const config = hardhat.resolveConfig(fileURLToPath(import.meta.url), {
    networks: {
      hardhat: {
        chainId: LOCAL_CHAIN_ID,
        accounts: { mnemonic: HARDHAT_MNEMONIC, count: ACCOUNT_COUNT },
        ...(options.genesis ? { initialDate: options.genesis.toISOString() } : {}),
      },
    },
  });
  return hardhat.createProvider(config, 'hardhat');
}

export async function serveJsonRpc(
  provider: Eip1193Provider,
  port: number,
): Promise<JsonRpcServer & { port: number }> {
  const server = new (internals().JsonRpcServer)({ hostname: '127.0.0.1', port, provider });
  try {
    const address = await server.listen();
    return Object.assign(server, { port: address.port });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`Port ${port} is in use; stop what holds it or set STACK_RPC_PORT to a free port.`, {
        cause: error,
      });
    }
    throw error;
  }
}
