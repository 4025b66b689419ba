import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { Network, RpcNodeType, TatumSDK, type Ethereum } from '@tatumio/tatum';
import { createPublicClient, createWalletClient, erc20Abi, http, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { waitForTransactionReceipt, writeContract } from 'viem/actions';
import WebSocket from 'ws';
import { startChain } from '../stack/chain/index.ts';
import { startGateway } from '../stack/gateway/index.ts';
import { percentile } from './lib/stats.ts';
import type { Database } from '../src/domain/database.types.ts';

// Transfer → notification latency on the local stack: from a DDEX transfer's
// receipt (mined) to the notification arriving over realtime at a signed-in
// user whose proven profile wallet is watched through the Tatum SDK. The SDK
// holds the stack's Tatum key, as the Edge Functions do: the emulator refuses
// any call without it. Everything runs on 127.0.0.1 in a throw-away data folder.
//   npx tsx bench/transfer-notification.ts [transfers=20]

const transfers = Number(process.argv[2] ?? '20');
const dataDir = mkdtempSync(join(tmpdir(), 'ddex-bench-loop-'));
const chain = await startChain({ port: 0, dataDir });
const gateway = await startGateway({
  port: 0,
  dataDir,
  quietEmail: true,
  tokenAddress: chain.tokenAddress,
  rpcUrl: chain.rpcUrl,
});
let tatum: Ethereum | null = null;
try {
  const [from, to] = chain.accounts;
  if (!from || !to) throw new Error('the chain needs two accounts');
  const supabase = createClient<Database>(gateway.url, gateway.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  const signUp = await supabase.auth.signUp({ email: 'bench@example.com', password: 'Testnet-only-pass-1' });
  const userId = signUp.data.user?.id;
  if (!userId) throw new Error(`sign-up failed: ${signUp.error?.message}`);
  // process-payments notifies only a proven wallet's owner; set it as link-wallet leaves it
  // after a proof, which this figure is not about.
  const service = createClient<Database>(gateway.url, gateway.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  const linked = await service
    .from('profiles')
    .upsert(
      { id: userId, wallet_address: to.address, wallet_verified_at: new Date().toISOString() },
      { onConflict: 'id' },
    );
  if (linked.error) throw new Error(`linking the wallet failed: ${linked.error.message}`);

  process.env['TATUM_URL'] = gateway.tatumApiUrl ?? '';
  tatum = await TatumSDK.init<Ethereum>({
    network: Network.ETHEREUM_SEPOLIA,
    apiKey: gateway.tatumApiKey,
    rpc: { nodes: [{ url: chain.rpcUrl, type: RpcNodeType.NORMAL }] },
    quiet: true,
  });
  const subscribed = await tatum.notification.subscribe.addressEvent({
    address: to.address,
    url: `${gateway.url}/functions/v1/process-payments`,
  });
  if (subscribed.error) throw new Error(`subscribing failed: ${JSON.stringify(subscribed.error)}`);

  const arrivals = new Map<string, number>();
  await new Promise<void>((resolve, reject) => {
    supabase
      .channel('bench')
      .on(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'user_notifications', filter: `user_id=eq.${userId}` },
        (payload) => arrivals.set(String(payload.new['message']), performance.now()),
      )
      .subscribe((status) => (status === 'SUBSCRIBED' ? resolve() : status === 'CHANNEL_ERROR' && reject()));
  });

  const transport = http(chain.rpcUrl, { retryCount: 0 });
  const wallet = createWalletClient({ account: privateKeyToAccount(from.privateKey), transport });
  const reader = createPublicClient({ transport, pollingInterval: 20 });
  const latencies: number[] = [];
  for (let i = 0; i < transfers; i++) {
    const hash = await writeContract(wallet, {
      address: chain.tokenAddress,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to.address, parseUnits('1', 18)],
      chain: null,
    });
    await waitForTransactionReceipt(reader, { hash, pollingInterval: 5 });
    const mined = performance.now();
    const deadline = mined + 10_000;
    let arrived: number | undefined;
    while (arrived === undefined && performance.now() < deadline) {
      arrived = [...arrivals].find(([message]) => message.includes(hash.slice(0, 10)))?.[1];
      if (arrived === undefined) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    if (arrived === undefined) throw new Error(`no notification for ${hash} within 10 s`);
    latencies.push(arrived - mined);
  }
  const at = (q: number) => percentile(latencies, q);
  console.log(
    `transfer → notification over ${transfers} transfers: p50 ${at(0.5).toFixed(0)} ms, ` +
      `p95 ${at(0.95).toFixed(0)} ms, max ${at(1).toFixed(0)} ms`,
  );
  await supabase.removeAllChannels();
  // Said outright: the gateway's PGlite leaves its own statuses (99, 100) in process.exitCode.
  process.exitCode = 0;
} finally {
  await tatum?.destroy();
  await gateway.close();
  await chain.close();
  rmSync(dataDir, { recursive: true, force: true });
}
