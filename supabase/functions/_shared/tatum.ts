import { Network, RpcNodeType, TatumSDK, type Ethereum } from '@tatumio/tatum';

// The Tatum account, as the functions use it: one SDK instance per function process, holding
// TATUM_API_KEY, which never leaves the server. @tatumio/tatum 4.2.58 runs unchanged under Deno
// (npm: specifier) and in Node (the gateway's `--functions node`), so both runtimes share this.
// Its version is pinned because this leans on undocumented behaviour of 4.2.58: the REST base
// comes from process.env.TATUM_URL at each request (tatum.connector.js:126-132), and a JSON-RPC
// error comes back as a SUCCESS with balance 'NaN' (address.js:346).

export type TatumConfig = {
  apiKey: string;
  /** REST base override (the local emulator's /tatum/v4/); null keeps the SDK's api.tatum.io. */
  apiUrl: string | null;
  /** The JSON-RPC node balances are read from; the SDK would otherwise fetch a node list. */
  rpcUrl: string;
  /** Tatum knows mainnet and testnets: every chain but mainnet is Sepolia to it. */
  mainnet: boolean;
};

export type TatumSubscription = { id: string; address: string; url: string; chain: string };

export type NativeBalance = {
  /** Plain decimal in ETH, never exponent notation: '1.5', '0.000000000000000001'. */
  balance: string;
  asset: string;
};

/**
 * What Tatum (or the node behind the SDK) refused or failed; `detail` never holds the key, nor the
 * RPC URL, which often carries a node provider's key in its path or query.
 */
export class TatumError extends Error {
  override readonly name = 'TatumError';
  constructor(
    readonly detail: string | null,
    readonly code: string | null = null,
  ) {
    super(detail ?? 'Tatum failed');
  }
}

export interface TatumApi {
  /** An ADDRESS_EVENT subscription: Tatum posts every transfer touching `address` to `url`. */
  subscribe(address: string, url: string): Promise<TatumSubscription>;
  /** True when Tatum deleted it, false when it held no such subscription. */
  unsubscribe(id: string): Promise<boolean>;
  nativeBalance(address: string): Promise<NativeBalance>;
}

/** The account's subscriptions, read back: what the server's own wallet watches need besides. */
export interface TatumSubscriptionList {
  /** The id and URL of every subscription of `address` the account holds. */
  subscriptionsOf(address: string): Promise<{ id: string; url: string }[]>;
}

const MAX_DETAIL = 500;
const NOT_FOUND = 'subscription.not.found';
const SUBSCRIPTIONS_PAGE = 50;

type Outcome = { ok: true; data: unknown } | { ok: false; detail: string | null; code: string | null };

export function createTatumApi(config: TatumConfig): TatumApi & TatumSubscriptionList {
  let client: Promise<Ethereum> | null = null;
  const secrets = secretsOf(config);
  const redact = (text: string) =>
    secrets.reduce((redacted, secret) => redacted.split(secret).join('[redacted]'), text);
  const fail = (detail: string | null, code: string | null = null) =>
    new TatumError(detail === null ? null : clip(redact(detail)), code);

  const sdk = (): Promise<Ethereum> => {
    if (client) return client;
    const starting = TatumSDK.init<Ethereum>({
      network: config.mainnet ? Network.ETHEREUM : Network.ETHEREUM_SEPOLIA,
      apiKey: config.apiKey,
      quiet: true,
      rpc: { nodes: [{ url: config.rpcUrl, type: RpcNodeType.NORMAL }] },
    });
    // A failed start is forgotten, so the next request tries again.
    starting.catch(() => {
      if (client === starting) client = null;
    });
    client = starting;
    return starting;
  };

  async function call(request: (tatum: Ethereum) => Promise<unknown>): Promise<Outcome> {
    let response: unknown;
    try {
      const tatum = await sdk();
      if (config.apiUrl) setRestBase(config.apiUrl);
      response = await request(tatum);
    } catch (error) {
      throw fail(error instanceof Error ? error.message : String(error));
    }
    return unwrap(response);
  }

  return {
    async subscribe(address, url) {
      const outcome = await call((tatum) => tatum.notification.subscribe.addressEvent({ address, url }));
      if (!outcome.ok) throw fail(outcome.detail, outcome.code);
      const data = outcome.data;
      if (!isRecord(data) || typeof data['id'] !== 'string' || data['id'] === '') {
        throw fail('unexpected response: no subscription id');
      }
      return {
        id: data['id'],
        address,
        url,
        chain: typeof data['chain'] === 'string' ? data['chain'] : 'ETH',
      };
    },

    async unsubscribe(id) {
      const outcome = await call((tatum) => tatum.notification.unsubscribe(id));
      if (outcome.ok) return true;
      if (outcome.code === NOT_FOUND) return false;
      throw fail(outcome.detail, outcome.code);
    },

    async subscriptionsOf(address) {
      // One page: an address has the server's subscription and a few demo hooks at most.
      const outcome = await call((tatum) =>
        tatum.notification.getAll({ address, pageSize: SUBSCRIPTIONS_PAGE }),
      );
      if (!outcome.ok) throw fail(outcome.detail, outcome.code);
      if (!Array.isArray(outcome.data)) throw fail('unexpected response: no subscription list');
      return outcome.data
        .filter(isRecord)
        .flatMap((entry) =>
          typeof entry['id'] === 'string' && typeof entry['url'] === 'string'
            ? [{ id: entry['id'], url: entry['url'] }]
            : [],
        );
    },

    async nativeBalance(address) {
      const outcome = await call((tatum) =>
        tatum.address.getBalance({ addresses: [address], tokenTypes: ['native'] }),
      );
      if (!outcome.ok) throw fail(outcome.detail, outcome.code);
      const entry = Array.isArray(outcome.data) ? (outcome.data as unknown[])[0] : undefined;
      if (!isRecord(entry)) throw fail('unexpected response: no balance entry');
      const { balance, asset } = entry;
      const plain = typeof balance === 'string' ? toPlainDecimal(balance) : null;
      if (plain === null || typeof asset !== 'string' || asset === '') {
        throw fail(`unexpected response: balance ${JSON.stringify(balance)} is not a number`);
      }
      return { balance: plain, asset };
    },
  };
}

// The SDK has no base-URL option: it reads process.env.TATUM_URL at each request, so the override
// is process-wide; one base per process is the supported setup. Node and Deno 2 both have a global
// `process` (Deno's writes through to its environment, under --allow-env).
function setRestBase(apiUrl: string): void {
  const holder = globalThis as { process?: { env?: Record<string, string | undefined> } };
  const env = holder.process?.env;
  if (!env) throw new Error('no process.env to point the Tatum SDK at its REST base');
  env['TATUM_URL'] = apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`;
}

// The SDK reports failures as values, {status:'ERROR', error:{message:[…], code}}.
function unwrap(response: unknown): Outcome {
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

const MIN_SECRET = 8;

/**
 * The strings no detail may quote: the key, the RPC URL whole, and the parts of it an error may
 * quote alone (its path's segments, its query's values, its credentials), longest first so a
 * part never spoils the match of the whole. Short parts ('v2', 'eth') are no secret.
 */
function secretsOf(config: TatumConfig): string[] {
  const parts = [config.apiKey, config.rpcUrl, config.rpcUrl.replace(/\/+$/, '')];
  try {
    const url = new URL(config.rpcUrl);
    parts.push(url.host + url.pathname, url.pathname + url.search, url.username, url.password);
    parts.push(...url.pathname.split('/'), ...[...url.searchParams.values()]);
    parts.push(...url.pathname.split('/').map(decodeURIComponentSafe));
  } catch {
    // Not a URL: the whole string above is all there is to hide.
  }
  const unique = new Set(parts.filter((part) => part.length >= MIN_SECRET));
  if (config.apiKey !== '') unique.add(config.apiKey);
  return [...unique].sort((a, b) => b.length - a.length);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function clip(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}

/** BigNumber's toString() switches to exponent notation below 1e-7: '1e-18' becomes '0.000000000000000001'. */
export function toPlainDecimal(value: string): string | null {
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
