import { FAUCET_ACCOUNT_INDEX } from '../../stack/chain/hardhat.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type Gateway } from '../../stack/gateway/index.ts';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { signedInUser } from '../support/stack/users.ts';

// The Edge Functions run from their real entry points under Deno (the stack's
// default, and what deploys), behind the gateway's JWT check; the in-process
// handlers (`--functions node`) answer the same requests the same way.

const stack = inject('gateway');
const chain = inject('chain');

type Call = {
  label: string;
  /** The function, and the query a call has. */
  name: string;
  init: (gateway: Pick<Gateway, 'anonKey' | 'webhookSecret'>) => Promise<RequestInit>;
  /** The status both runtimes answer, where the call's own test says it (any refusal otherwise). */
  status?: number;
};

const json = { 'content-type': 'application/json' };
const CALLS: Call[] = [
  { label: 'a GET', name: 'process-payments', init: async () => ({ method: 'GET' }) },
  {
    label: 'an unsigned delivery',
    name: 'process-payments',
    init: async () => ({ method: 'POST', headers: json, body: '{"address":"0x1"}' }),
  },
  {
    // A body without a length (chunked), as a streaming client sends it.
    label: 'a chunked delivery',
    name: 'process-payments',
    init: async () =>
      ({
        method: 'POST',
        headers: json,
        body: new Blob(['{"address":"0x1"}']).stream(),
        duplex: 'half',
      }) as RequestInit,
  },
  {
    label: 'a signed delivery that is not JSON',
    name: 'process-payments',
    init: async (gateway) => ({
      method: 'POST',
      headers: { ...json, 'x-payload-hash': await signPayload(gateway.webhookSecret, '{"address":') },
      body: '{"address":',
    }),
  },
  { label: 'a GET of the bots’ webhook', name: 'market-bots', init: async () => ({ method: 'GET' }) },
  {
    label: 'an unsigned delivery to the bots’ webhook',
    name: 'market-bots',
    init: async () => ({ method: 'POST', headers: json, body: '{"address":"0x1"}' }),
  },
  {
    label: 'a signed delivery to the bots’ webhook that is no address event',
    name: 'market-bots',
    init: async (gateway) => ({
      method: 'POST',
      headers: { ...json, 'x-payload-hash': await signPayload(gateway.webhookSecret, '{"address":"0x1"}') },
      body: '{"address":"0x1"}',
    }),
  },
  {
    label: 'a history write without a JWT',
    name: 'record-transaction',
    init: async () => ({ method: 'POST', headers: json, body: '{}' }),
  },
  {
    label: 'a history write with the anon key',
    name: 'record-transaction',
    init: async (gateway) => ({
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${gateway.anonKey}` },
      body: '{"txHash":"0x12"}',
    }),
  },
  {
    label: 'a wallet link without a JWT',
    name: 'link-wallet',
    init: async () => ({ method: 'POST', headers: json, body: '{"address":"0x1"}' }),
  },
  {
    label: 'a webhook list without a JWT',
    name: 'tatum-webhooks',
    init: async () => ({ method: 'GET' }),
  },
  {
    label: 'a balance without the anon key',
    name: 'native-balance',
    init: async () => ({ method: 'POST', headers: json, body: '{"address":"0x1"}' }),
  },
  {
    label: 'a drain of the wallet watches with the anon key',
    name: 'watch-wallets',
    init: async (gateway) => ({
      method: 'POST',
      headers: { ...json, apikey: gateway.anonKey, authorization: `Bearer ${gateway.anonKey}` },
      body: '{}',
    }),
  },
  {
    label: 'a faucet claim with the anon key for a session',
    name: 'faucet',
    init: async (gateway) => ({
      method: 'POST',
      headers: { ...json, apikey: gateway.anonKey, authorization: `Bearer ${gateway.anonKey}` },
      body: '{"captcha":"10000000-aaaa-bbbb-cccc-000000000001"}',
    }),
  },
  {
    label: 'an unsubscribe with a made-up token',
    name: 'email-unsubscribe',
    init: async () => ({ method: 'POST', headers: json, body: '{"token":"eyJ1IjoiIn0.c2ln"}' }),
  },
  {
    // A mail client without one click opens the List-Unsubscribe address; one that verifies is sent
    // on to the portal (tests/contract/email-alerts.test.ts), nothing else is.
    label: 'a GET of the unsubscribe address without a token',
    name: 'email-unsubscribe',
    init: async () => ({ method: 'GET' }),
    status: 400,
  },
  {
    label: 'a GET of the unsubscribe address with a made-up token',
    name: 'email-unsubscribe?token=eyJ1IjoiIn0.c2ln',
    init: async () => ({ method: 'GET', redirect: 'manual' }),
    status: 400,
  },
  {
    label: 'a balance of a malformed address',
    name: 'native-balance',
    init: async (gateway) => ({
      method: 'POST',
      headers: { ...json, apikey: gateway.anonKey },
      body: '{"address":"0x1"}',
    }),
  },
];

async function answer(url: string, init: RequestInit) {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.text() };
}

let dataDir: string;
let inProcess: Gateway;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ddex-functions-node-'));
  inProcess = await startGateway({
    port: 0,
    dataDir,
    quietEmail: true,
    tokenAddress: chain.tokenAddress,
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    // market-bots is served only with the market, as in the stack.
    uniswapRouter: chain.uniswap.router,
    // The shared chain's faucet account: the calls here are refused before anything is paid.
    faucetPrivateKey: chain.accounts[FAUCET_ACCOUNT_INDEX]?.privateKey ?? null,
    functions: 'node',
  });
}, 60_000);

afterAll(async () => {
  await inProcess?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the Edge Functions’ runtimes', () => {
  it('serves every function from its Deno entry point, each on a server of its own', async () => {
    expect(stack.functions.runtime).toBe('deno');
    // email-alerts is served only with SMTP settings, which the shared stack has none of.
    expect(Object.keys(stack.functions.urls).sort()).toEqual([
      'email-unsubscribe',
      'faucet',
      'link-wallet',
      'market-bots',
      'native-balance',
      'process-payments',
      'record-transaction',
      'tatum-webhooks',
      'watch-wallets',
    ]);
    // The function itself, reached without the gateway, is the Deno server answering.
    const direct = await answer(stack.functions.urls['process-payments'] ?? '', { method: 'GET' });
    const relayed = await answer(`${stack.url}/functions/v1/process-payments`, { method: 'GET' });
    expect(direct.status).toBe(405);
    expect(relayed).toEqual(direct);
    expect(inProcess.functions).toEqual({ runtime: 'node', urls: {} });
  });

  it.each(CALLS)(
    'answers $label under Deno as the in-process handler does',
    async ({ name, init, status }) => {
      const underDeno = await answer(`${stack.url}/functions/v1/${name}`, await init(stack));
      const inNode = await answer(`${inProcess.url}/functions/v1/${name}`, await init(inProcess));
      expect(underDeno.status).toBeGreaterThanOrEqual(400);
      if (status !== undefined) expect(underDeno.status).toBe(status);
      expect(underDeno).toEqual(inNode);
    },
  );

  it('answers a signed-in user’s call to link-wallet under Deno as the in-process handler does', async () => {
    const body = JSON.stringify({ address: '0x1234' });
    const call = async (gateway: typeof stack | Gateway) => {
      const user = await signedInUser(gateway, 'runtime');
      return answer(`${gateway.url}/functions/v1/link-wallet`, {
        method: 'POST',
        headers: { ...json, apikey: gateway.anonKey, authorization: `Bearer ${user.accessToken}` },
        body,
      });
    };
    const [underDeno, inNode] = await Promise.all([call(stack), call(inProcess)]);
    expect(underDeno.status).toBe(400);
    expect(JSON.parse(underDeno.body)).toMatchObject({ code: 'malformed' });
    expect(underDeno).toEqual(inNode);
  });
});
