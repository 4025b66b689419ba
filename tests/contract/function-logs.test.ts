import { randomBytes } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { startDenoFunction, type DenoFunction } from '../../stack/functions/deno.ts';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { serviceClient, signedInUser, type Client, type TestUser } from '../support/stack/users.ts';
import { closedPort } from '../support/closed-port.ts';
import { PORTAL_ORIGIN, proofMessage, setWalletAsServer } from '../support/stack/wallets.ts';

// A hosted RPC URL carries the node provider's key (Infura and Alchemy in the path, others in the
// query or as credentials), and the runtimes quote that URL in their fetch errors. Each function
// that reads the chain runs here from its real Deno entry point with RPC_URL holding a key in all
// three places, on a port nothing listens on, and is driven down a path that asks the node: it
// answers with its documented error, and the key is in no line it wrote to stdout or stderr.

const stack = inject('gateway');
const chain = inject('chain');
const service = serviceClient(stack);
const SECRET = 'function-logs-webhook-secret';
const TATUM_CHAIN = 'ethereum-sepolia';
const KEY = `rpcKey${randomBytes(8).toString('hex')}`;

/** Every line any of the functions wrote, prefixed with its name. */
const lines: string[] = [];
const running: Record<string, DenoFunction> = {};
const clients: Client[] = [];

const CHAIN_READERS = [
  'process-payments',
  'record-transaction',
  'market-bots',
  'link-wallet',
  'native-balance',
];

beforeAll(async () => {
  const rpcUrl = `http://rpc:${KEY}@127.0.0.1:${await closedPort()}/v3/${KEY}?apikey=${KEY}`;
  const platform = {
    SUPABASE_URL: stack.url,
    SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
    RPC_URL: rpcUrl,
  };
  const market = { UNISWAP_V2_ROUTER: chain.uniswap.router, DDEX_TOKEN_ADDRESS: chain.tokenAddress };
  const webhook = { TATUM_WEBHOOK_SECRET: SECRET, TATUM_CHAIN };
  const settings: Record<string, Record<string, string>> = {
    'process-payments': { ...platform, ...market, ...webhook },
    'record-transaction': { ...platform, ...market },
    'market-bots': { ...platform, ...market, ...webhook },
    'link-wallet': { ...platform, CHAIN_ID: String(chain.chainId), SITE_URL: PORTAL_ORIGIN },
    'native-balance': {
      ...platform,
      SUPABASE_ANON_KEY: stack.anonKey,
      TATUM_API_KEY: stack.tatumApiKey,
      TATUM_API_URL: stack.tatumApiUrl,
      CHAIN_ID: String(chain.chainId),
    },
  };
  await Promise.all(
    CHAIN_READERS.map(async (name) => {
      running[name] = await startDenoFunction(name, settings[name] ?? {}, (line) => lines.push(line));
    }),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(running).map((fn) => fn.stop()));
  await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
});

function urlOf(name: string): string {
  const fn = running[name];
  if (!fn) throw new Error(`${name} is not running`);
  return fn.url;
}

const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const txHash = () => `0x${randomBytes(32).toString('hex')}`;

/** A signed-in user whose profile holds a fresh wallet, proven as link-wallet leaves it. */
async function provenUser(label: string): Promise<TestUser & { wallet: string }> {
  const user = await signedInUser(stack, label);
  clients.push(user.client);
  const wallet = freshAddress();
  await setWalletAsServer(service, user.id, wallet, true);
  return { ...user, wallet };
}

/** A DDEX transfer of `address` with `counterAddress` on the other side, as Tatum delivers it, signed. */
async function deliver(name: string, address: string, counterAddress: string): Promise<Response> {
  const body = JSON.stringify({
    address,
    amount: '1.5',
    asset: chain.tokenAddress.toLowerCase(),
    contractAddress: chain.tokenAddress.toLowerCase(),
    blockNumber: 1,
    counterAddress,
    txId: txHash(),
    type: 'token',
    chain: TATUM_CHAIN,
    subscriptionType: 'ADDRESS_EVENT',
    mempool: false,
  });
  return fetch(urlOf(name), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-payload-hash': await signPayload(SECRET, body) },
    body,
  });
}

function post(name: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(urlOf(name), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/**
 * Waits for the function's own failure line (its output reaches this process after its answer),
 * then finds the key in none of the lines the function wrote.
 */
async function expectFailureLoggedWithoutKey(name: string): Promise<void> {
  const written = () => lines.filter((line) => line.startsWith(`[${name}] `));
  await vi.waitFor(
    () =>
      expect(
        written().some((line) => line.startsWith(`[${name}] [${name}] `) && line.includes('failed')),
      ).toBe(true),
    { timeout: 5_000 },
  );
  expect(written().filter((line) => line.includes(KEY))).toEqual([]);
}

describe('with its node unreachable, no function logs the RPC URL’s key', () => {
  it('process-payments answers 503 to a transfer with the pair', async () => {
    const owner = await provenUser('logs-payments');
    const answer = await deliver('process-payments', owner.wallet, chain.uniswap.pair);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({ error: 'Chain unavailable' });
    await expectFailureLoggedWithoutKey('process-payments');
  });

  it('record-transaction answers 502 to a tx hash', async () => {
    const sender = await provenUser('logs-record');
    const answer = await post(
      'record-transaction',
      { txHash: txHash() },
      { authorization: `Bearer ${sender.accessToken}` },
    );
    expect(answer.status).toBe(502);
    expect(await answer.json()).toMatchObject({ error: 'Chain unavailable' });
    await expectFailureLoggedWithoutKey('record-transaction');
  });

  it('market-bots answers 500 to a delivery for the pair', async () => {
    const answer = await deliver('market-bots', chain.uniswap.pair.toLowerCase(), freshAddress());
    expect(answer.status).toBe(500);
    expect(await answer.json()).toMatchObject({ error: 'Evaluation failed' });
    await expectFailureLoggedWithoutKey('market-bots');
  });

  it('link-wallet answers 502 to a proof only the node can check', async () => {
    const user = await signedInUser(stack, 'logs-link');
    clients.push(user.client);
    const auth = { authorization: `Bearer ${user.accessToken}` };
    const wallet = freshAddress();
    const issued = await post('link-wallet', { address: wallet }, auth);
    expect(issued.status).toBe(200);
    const { nonce } = (await issued.json()) as { nonce: string };
    const message = proofMessage(chain, wallet, nonce);
    // Another key's signature may still be the wallet's if it is a contract: only the node can say.
    const signature = await privateKeyToAccount(generatePrivateKey()).signMessage({ message });
    const answer = await post('link-wallet', { message, signature }, auth);
    expect(answer.status).toBe(502);
    expect(await answer.json()).toMatchObject({ code: 'chain_unavailable' });
    await expectFailureLoggedWithoutKey('link-wallet');
  });

  it('native-balance answers 502 to a balance request', async () => {
    const answer = await post(
      'native-balance',
      { address: freshAddress() },
      { apikey: stack.anonKey, 'x-forwarded-for': `10.254.${randomBytes(1)[0]}.${randomBytes(1)[0]}` },
    );
    expect(answer.status).toBe(502);
    expect(await answer.json()).toMatchObject({ code: 'provider_unavailable' });
    await expectFailureLoggedWithoutKey('native-balance');
  });
});
