import type { Ethereum, Network } from '@tatumio/tatum';
import {
  TatumServiceError,
  type AddressWebhook,
  type NativeBalance,
  type TatumOperation,
  type TatumService,
  type TatumServiceConfig,
} from './types.ts';

// The SDK is ~78 KB gzip and not tree-shakeable, so it is only ever imported
// dynamically (the `import type` above is erased). Its version is pinned
// because this file leans on undocumented behaviour of 4.2.58: the REST base
// comes from process.env.TATUM_URL (tatum.connector.js:126-132), and init
// leaves a Node exit listener behind (LoadBalancer.js:62,77).

type SdkModule = typeof import('@tatumio/tatum');

/** Test seam: lets a test make the first dynamic import fail, as a stale chunk after a deploy does. */
export type TatumServiceDeps = { loadSdk?: () => Promise<SdkModule> };

// The slice of the SDK client we use. Every answer is `unknown` and checked at
// run time: the SDK's own types promise shapes its runtime does not keep
// (a JSON-RPC error comes back as a SUCCESS with balance 'NaN').
type SdkClient = {
  address: { getBalance(query: { addresses: string[]; tokenTypes: ['native'] }): Promise<unknown> };
  notification: {
    subscribe: { addressEvent(detail: { address: string; url: string }): Promise<unknown> };
    getAll(query: { pageSize: number; offset: number }): Promise<unknown>;
    unsubscribe(id: string): Promise<unknown>;
  };
  destroy(): Promise<void>;
};

type Instance = { client: SdkClient; sdk: SdkModule; release(): Promise<void> };

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

// Tatum's largest page for GET subscription; the cap keeps a server that
// ignores `offset` from looping us forever.
const PAGE_SIZE = 50;
const MAX_PAGES = 100;
const MAX_DETAIL = 500;
const SUBSCRIPTION_ID = /^[\w-]{1,128}$/;

export function createTatumService(config: TatumServiceConfig, deps: TatumServiceDeps = {}): TatumService {
  const loadSdk = deps.loadSdk ?? (() => import('@tatumio/tatum'));
  const apiKey = config.apiKey ? config.apiKey : null;
  let current: Promise<Instance> | null = null;

  const redact = (text: string): string => (apiKey ? text.split(apiKey).join('[redacted]') : text);

  const fail = (
    operation: TatumOperation,
    detail: string | null,
    code: string | null = null,
    cause?: unknown,
  ): TatumServiceError => {
    const safe = detail === null ? null : clip(redact(detail));
    return new TatumServiceError(operation, { detail: safe, code, cause });
  };

  function instance(): Promise<Instance> {
    if (current) return current;
    const started = start(config, apiKey, loadSdk).catch((error: unknown) => {
      // Forget the failure so the next call tries again (a chunk may load on retry).
      if (current === started) current = null;
      throw fail('init', describeThrown(error), null, error);
    });
    current = started;
    return started;
  }

  async function call<T>(
    operation: Exclude<TatumOperation, 'init'>,
    request: (client: SdkClient) => Promise<unknown>,
    parse: (data: unknown, sdk: SdkModule) => Parsed<T>,
  ): Promise<T> {
    const { client, sdk } = await instance();
    let response: unknown;
    try {
      applyRestBase(config.apiUrl);
      response = await request(client);
    } catch (error) {
      throw fail(operation, describeThrown(error), null, error);
    }
    const outcome = unwrap(response);
    if (!outcome.ok) throw fail(operation, outcome.detail, outcome.code);
    const parsed = parse(outcome.data, sdk);
    if (!parsed.ok) throw fail(operation, `unexpected response: ${parsed.problem}`);
    return parsed.value;
  }

  return {
    getNativeBalance: (address) =>
      call(
        'getNativeBalance',
        (client) => client.address.getBalance({ addresses: [address], tokenTypes: ['native'] }),
        parseBalance,
      ),

    createAddressWebhook: ({ address, url }) =>
      call(
        'createAddressWebhook',
        (client) => client.notification.subscribe.addressEvent({ address, url }),
        parseCreated,
      ),

    async listWebhooks() {
      const all: AddressWebhook[] = [];
      for (let page = 0; page < MAX_PAGES; page++) {
        const rows = await call(
          'listWebhooks',
          // offset counts pages (the SDK passes its own `page` arguments as offset).
          (client) => client.notification.getAll({ pageSize: PAGE_SIZE, offset: page }),
          parseSubscriptions,
        );
        all.push(...rows.webhooks);
        if (rows.count < PAGE_SIZE) return all;
      }
      throw fail('listWebhooks', `more than ${MAX_PAGES * PAGE_SIZE} subscriptions`);
    },

    async deleteWebhook(id) {
      // The SDK pastes the id into the path; keep it from naming another resource.
      if (!SUBSCRIPTION_ID.test(id)) {
        throw fail('deleteWebhook', 'not a subscription id');
      }
      await call(
        'deleteWebhook',
        (client) => client.notification.unsubscribe(id),
        () => ({ ok: true, value: undefined }),
      );
    },

    async destroy() {
      const pending = current;
      current = null;
      if (!pending) return;
      const settled = await pending.then(
        (value) => value,
        () => null,
      );
      await settled?.release();
    },
  };
}

async function start(
  config: TatumServiceConfig,
  apiKey: string | null,
  loadSdk: () => Promise<SdkModule>,
): Promise<Instance> {
  if (!isHttpUrl(config.rpcUrl)) throw new Error('rpcUrl must be an absolute http(s) URL');
  if (config.apiUrl && !isHttpUrl(config.apiUrl)) throw new Error('apiUrl must be an absolute http(s) URL');
  const sdk = await loadSdk();
  const exitListeners = listenersOf('exit');
  const starting = sdk.TatumSDK.init<Ethereum>({
    network: config.network === 'ethereum' ? sdk.Network.ETHEREUM : sdk.Network.ETHEREUM_SEPOLIA,
    ...(apiKey ? { apiKey } : {}),
    quiet: true,
    // Without nodes, init fetches Tatum's node list from the internet.
    rpc: { nodes: [{ url: config.rpcUrl, type: sdk.RpcNodeType.NORMAL }] },
    ...(config.retryCount === undefined ? {} : { retryCount: config.retryCount }),
    // The SDK reads 0 as "use 1000 ms" (`retryDelay || 1000`), so the floor is 1 ms.
    ...(config.retryDelayMs === undefined ? {} : { retryDelay: Math.max(1, config.retryDelayMs) }),
  });
  // In Node each init adds a process 'exit' listener that its destroy() never
  // removes (it passes a fresh arrow to process.off), so services that come and
  // go would pile them up into a MaxListenersExceededWarning. The listener is
  // added synchronously inside init(), so the difference is exactly the SDK's.
  const leaked = listenersOf('exit').filter((listener) => !exitListeners.includes(listener));
  const client: SdkClient = await starting;
  return {
    client,
    sdk,
    async release() {
      for (const listener of leaked) nodeProcess()?.off?.('exit', listener);
      try {
        await client.destroy();
      } catch {
        // Teardown must not fail the caller; the SDK only clears its own timers here.
      }
    },
  };
}

type ExitListener = (...args: unknown[]) => void;

/** The slice of Node's `process` the SDK's exit listener concerns; there is none in the browser. */
function nodeProcess():
  | {
      listeners?: (event: 'exit') => ExitListener[];
      off?: (event: 'exit', listener: ExitListener) => unknown;
    }
  | undefined {
  return (globalThis as { process?: ReturnType<typeof nodeProcess> }).process;
}

function listenersOf(event: 'exit'): ExitListener[] {
  const proc = nodeProcess();
  return typeof proc?.listeners === 'function' ? proc.listeners(event) : [];
}

// The SDK has no base-URL option: TatumConnector.getBaseUrl() reads
// process.env.TATUM_URL at each request, so the override is process-wide.
// Setting it right before every call lets the latest service win; two services
// with different bases in one process only work because the SDK builds the URL
// synchronously when a call starts. One base per process is the supported
// setup. In the browser a minimal `process` is made (or merged into) for it.
function applyRestBase(apiUrl: string | null): void {
  if (!apiUrl) return;
  const base = apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`;
  const holder = globalThis as { process?: { env?: Record<string, string | undefined> } };
  holder.process ??= { env: {} };
  holder.process.env ??= {};
  holder.process.env['TATUM_URL'] = base;
}

// The SDK reports failures as values, {status:'ERROR', error:{message:[…], code}}.
function unwrap(
  response: unknown,
): { ok: true; data: unknown } | { ok: false; detail: string | null; code: string | null } {
  if (!isRecord(response)) return { ok: false, detail: 'unexpected response from the SDK', code: null };
  if (response['status'] === 'SUCCESS') return { ok: true, data: response['data'] };
  const error = isRecord(response['error']) ? response['error'] : {};
  const code = typeof error['code'] === 'string' ? error['code'] : null;
  const messages = Array.isArray(error['message']) ? error['message'] : [error['message']];
  const detail = messages
    .map(describeMessage)
    .filter((text) => text !== '')
    .join('; ');
  return { ok: false, detail: detail === '' ? null : detail, code };
}

function describeMessage(message: unknown): string {
  if (message === undefined || message === null) return '';
  if (typeof message !== 'string') return JSON.stringify(message) ?? '';
  // A non-JSON error body reaches us JSON-quoted ('"Bad Gateway"').
  if (message.startsWith('"')) {
    try {
      const inner: unknown = JSON.parse(message);
      if (typeof inner === 'string') return inner.trim();
    } catch {
      // not a quoted string after all
    }
  }
  return message.trim();
}

function describeThrown(error: unknown): string | null {
  if (error instanceof Error) return error.message || null;
  if (typeof error === 'string') return describeMessage(error) || null;
  return null;
}

function clip(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}

function parseBalance(data: unknown): Parsed<NativeBalance> {
  const entry = Array.isArray(data) ? (data as unknown[])[0] : undefined;
  if (!isRecord(entry)) return { ok: false, problem: 'no balance entry' };
  const { balance, asset } = entry;
  if (typeof asset !== 'string' || asset === '') return { ok: false, problem: 'no asset' };
  const plain = typeof balance === 'string' ? toPlainDecimal(balance) : null;
  // 'NaN' is how the SDK passes on a JSON-RPC error object (address.js:346).
  if (plain === null) return { ok: false, problem: `balance ${JSON.stringify(balance)} is not a number` };
  return { ok: true, value: { balance: plain, asset } };
}

function parseCreated(data: unknown): Parsed<AddressWebhook> {
  if (!isRecord(data)) return { ok: false, problem: 'no subscription' };
  const { id, address, url, chain } = data;
  if (typeof id !== 'string' || id === '') return { ok: false, problem: 'no subscription id' };
  if (typeof address !== 'string' || typeof url !== 'string' || typeof chain !== 'string') {
    return { ok: false, problem: 'subscription without address, url or chain' };
  }
  return { ok: true, value: { id, address, url, chain, type: 'ADDRESS_EVENT' } };
}

// getAll() reports each subscription's network ('ethereum'), having mapped
// Tatum's chain code through it; map it back so create and list agree ('ETH').
function parseSubscriptions(
  data: unknown,
  sdk: SdkModule,
): Parsed<{ webhooks: AddressWebhook[]; count: number }> {
  if (!Array.isArray(data)) return { ok: false, problem: 'subscriptions are not a list' };
  const webhooks: AddressWebhook[] = [];
  for (const row of data as unknown[]) {
    if (!isRecord(row)) return { ok: false, problem: 'a subscription is not an object' };
    const { id, type, url, network, address } = row;
    if (typeof id !== 'string' || typeof type !== 'string' || typeof url !== 'string') {
      return { ok: false, problem: 'a subscription lacks id, type or url' };
    }
    // Block- and contract-based subscriptions watch no address: not ours to list.
    if (typeof address !== 'string') continue;
    webhooks.push({ id, type, url, address, chain: notificationChain(sdk, network) });
  }
  return { ok: true, value: { webhooks, count: data.length } };
}

function notificationChain(sdk: SdkModule, network: unknown): string {
  if (!(Object.values(sdk.Network) as unknown[]).includes(network)) return String(network);
  try {
    return sdk.Utils.mapNetworkToNotificationChain(network as Network);
  } catch {
    return String(network);
  }
}

/** BigNumber's toString() switches to exponent notation below 1e-7: '1e-18' becomes '0.000000000000000001'. */
function toPlainDecimal(value: string): string | null {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(value);
  if (!match) return null;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const shift = Number(exponent);
  if (Math.abs(shift) > 1000) return null;
  let digits = whole + fraction;
  let point = whole.length + shift;
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  } else if (point > digits.length) {
    digits += '0'.repeat(point - digits.length);
  }
  const integer = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const decimals = digits.slice(point).replace(/0+$/, '');
  return `${sign}${integer}${decimals ? `.${decimals}` : ''}`;
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
