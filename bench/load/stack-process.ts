import { startChain } from '../../stack/chain/index.ts';
import { startGateway } from '../../stack/gateway/index.ts';
import type { MarketDescription } from './bots-chain.ts';
import { startMarketTap } from './market-tap.ts';
import { CPU, READY, type StackCpu, type StackDescription } from './stack.ts';

// The stack under load, in a process of its own so the simulated users' work
// (JSON, websockets, signing) does not share the gateway's thread: a chain and
// a gateway on 127.0.0.1, free ports, data in the folder given as argument.
// It prints one READY line with what the users need (and, for the bots phase,
// the market, a few funded accounts to trade with and market-tap.ts's record
// of the emulator's deliveries to market-bots), and stops when its
// standard input closes (the load script ended or died), printing the CPU time
// it used meanwhile. Under --cpu-prof (bench/load/stack.ts) Node writes the
// profile when this process exits, process.exit included.
//   node [--cpu-prof --cpu-prof-dir=…] --import tsx bench/load/stack-process.ts <data dir>

/** Accounts that trade in the bots phase. */
const TRADERS = 5;

/** The monotonic clock in µs, as V8's CPU profiler stamps its samples. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

async function main(dataDir: string): Promise<void> {
  const chain = await startChain({ port: 0, dataDir });
  const gateway = await startGateway({
    port: 0,
    dataDir,
    quietEmail: true,
    tokenAddress: chain.tokenAddress,
    rpcUrl: chain.rpcUrl,
    // As `npm run stack` does: market-bots is served and the pair subscribed to it.
    uniswapRouter: chain.uniswap.router,
    // The limit stays on, sized for the simulated users (up to 200 in a knee run), who all sign up
    // and in from 127.0.0.1 within the ramp.
    authRateLimit: '1000/300',
  });
  const tap = await startMarketTap(gateway.pg, `${gateway.url}/functions/v1/market-bots`);
  const market: MarketDescription = {
    rpcUrl: chain.rpcUrl,
    router: chain.uniswap.router,
    weth: chain.uniswap.weth,
    pair: chain.uniswap.pair,
    // Each phase has a stack of its own, so no other phase signs with these.
    traders: chain.accounts.slice(-TRADERS),
    tapUrl: tap.url,
  };
  const description: StackDescription & { market: MarketDescription } = {
    url: gateway.url,
    anonKey: gateway.anonKey,
    serviceRoleKey: gateway.serviceRoleKey,
    webhookSecret: gateway.webhookSecret,
    tokenAddress: chain.tokenAddress,
    rpcUrl: chain.rpcUrl,
    addresses: chain.accounts.map((account) => account.address),
    market,
  };
  const cpuAtStart = process.cpuUsage();
  const startedAt = performance.now();
  const startedAtUs = monotonicUs();
  process.stdout.write(`${READY}${JSON.stringify(description)}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const used = process.cpuUsage(cpuAtStart);
    const cpu: StackCpu = {
      userMs: used.user / 1000,
      systemMs: used.system / 1000,
      wallMs: performance.now() - startedAt,
      fromUs: startedAtUs,
      toUs: monotonicUs(),
    };
    process.stdout.write(`${CPU}${JSON.stringify(cpu)}\n`);
    await tap.close();
    await gateway.close();
    await chain.close();
    process.exit(0);
  };
  process.stdin.on('end', () => void stop());
  process.stdin.on('close', () => void stop());
  process.stdin.resume();
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

const dataDir = process.argv[2];
if (!dataDir) {
  console.error('usage: node --import tsx bench/load/stack-process.ts <data dir>');
  process.exit(2);
}
main(dataDir).catch((error: unknown) => {
  console.error('[load stack] failed to start:', error);
  process.exit(1);
});
