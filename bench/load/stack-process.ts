import { startChain } from '../../stack/chain/index.ts';
import { startGateway } from '../../stack/gateway/index.ts';
import { CPU, READY, type StackCpu, type StackDescription } from './stack.ts';

// The stack under load, in a process of its own so the simulated users' work
// (JSON, websockets, signing) does not share the gateway's thread: a chain and
// a gateway on 127.0.0.1, free ports, data in the folder given as argument.
// It prints one READY line with what the users need, and stops when its
// standard input closes (the load script ended or died), printing the CPU time
// it used meanwhile.
//   node --import tsx bench/load/stack-process.ts <data dir>

async function main(dataDir: string): Promise<void> {
  const chain = await startChain({ port: 0, dataDir });
  const gateway = await startGateway({
    port: 0,
    dataDir,
    quietEmail: true,
    tokenAddress: chain.tokenAddress,
    rpcUrl: chain.rpcUrl,
  });
  const description: StackDescription = {
    url: gateway.url,
    anonKey: gateway.anonKey,
    serviceRoleKey: gateway.serviceRoleKey,
    webhookSecret: gateway.webhookSecret,
    tokenAddress: chain.tokenAddress,
    addresses: chain.accounts.map((account) => account.address),
  };
  const cpuAtStart = process.cpuUsage();
  const startedAt = performance.now();
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
    };
    process.stdout.write(`${CPU}${JSON.stringify(cpu)}\n`);
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
