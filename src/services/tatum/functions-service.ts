import {
  TatumServiceError,
  type AddressWebhook,
  type FunctionsClient,
  type NativeBalance,
  type TatumOperation,
  type TatumService,
  type TatumServiceConfig,
} from './types.ts';

// The data provider through the project's Edge Functions, which hold the Tatum key: the browser
// never has it, nor the SDK. native-balance answers anyone with the anon key (rate limited per
// client); tatum-webhooks acts for the signed-in user whose session supabase-js sends, on their
// proven wallet only. Every answer is checked at run time.

const NATIVE_BALANCE = 'native-balance';
const TATUM_WEBHOOKS = 'tatum-webhooks';
const SUBSCRIPTION_ID = /^[\w-]{1,128}$/;
const MAX_DETAIL = 500;

type Method = 'GET' | 'POST' | 'DELETE';

export function createTatumService(config: TatumServiceConfig): TatumService {
  async function call(
    operation: Exclude<TatumOperation, 'init'>,
    name: string,
    method: Method,
    body?: Record<string, unknown>,
  ): Promise<unknown> {
    let client: FunctionsClient;
    try {
      client = await config.client();
    } catch (error) {
      throw new TatumServiceError('init', { detail: describeThrown(error), cause: error });
    }
    let answer: { data: unknown; error: unknown };
    try {
      answer = await client.functions.invoke(name, { method, ...(body ? { body } : {}) });
    } catch (error) {
      throw new TatumServiceError(operation, { detail: describeThrown(error), cause: error });
    }
    if (answer.error) throw await refusal(operation, answer.error, name.startsWith(TATUM_WEBHOOKS));
    return answer.data;
  }

  return {
    async getNativeBalance(address) {
      const data = await call('getNativeBalance', NATIVE_BALANCE, 'POST', { address });
      if (!isRecord(data) || typeof data['balance'] !== 'string' || typeof data['asset'] !== 'string') {
        throw new TatumServiceError('getNativeBalance', { detail: 'unexpected response: no balance' });
      }
      return { balance: data['balance'], asset: data['asset'] } satisfies NativeBalance;
    },

    async createAddressWebhook({ address }) {
      const data = await call('createAddressWebhook', TATUM_WEBHOOKS, 'POST', { address });
      const webhook = isRecord(data) ? webhookOf(data['webhook']) : null;
      if (!webhook) throw new TatumServiceError('createAddressWebhook', { detail: 'unexpected response' });
      return webhook;
    },

    async listWebhooks() {
      const data = await call('listWebhooks', TATUM_WEBHOOKS, 'GET');
      const rows = isRecord(data) ? data['webhooks'] : null;
      if (!Array.isArray(rows))
        throw new TatumServiceError('listWebhooks', { detail: 'unexpected response' });
      const webhooks = rows.map(webhookOf);
      if (webhooks.some((webhook) => webhook === null)) {
        throw new TatumServiceError('listWebhooks', {
          detail: 'unexpected response: a webhook lacks its id',
        });
      }
      return webhooks as AddressWebhook[];
    },

    async deleteWebhook(id) {
      // The id becomes part of the path; keep it from naming another resource.
      if (!SUBSCRIPTION_ID.test(id)) {
        throw new TatumServiceError('deleteWebhook', { detail: 'not a subscription id' });
      }
      await call('deleteWebhook', `${TATUM_WEBHOOKS}/${encodeURIComponent(id)}`, 'DELETE');
    },

    // Nothing is held: the functions keep the SDK.
    destroy: () => Promise.resolve(),
  };
}

/**
 * A function's refusal as the service's error: its `code` (not_signed_in, wallet_unverified,
 * rate_limited, busy, provider_refused…), what it or Tatum said as `detail`, and how long to wait.
 */
async function refusal(
  operation: TatumOperation,
  error: unknown,
  needsSession: boolean,
): Promise<TatumServiceError> {
  const context = isRecord(error) ? error['context'] : null;
  if (!isAnswer(context)) {
    // No answer at all (offline, CORS, the relay failing): supabase-js's own words.
    return new TatumServiceError(operation, { detail: describeThrown(error), cause: error });
  }
  const body: unknown = await context.json().catch(() => null);
  const record = isRecord(body) ? body : {};
  const said = (key: string) => (typeof record[key] === 'string' ? (record[key] as string) : null);
  // The platform's own JWT check answers 401 with a numeric code: to tatum-webhooks, which needs a
  // session, a visitor has none. native-balance needs none, so its 401 keeps its own code.
  const code =
    needsSession && context.status === 401 ? 'not_signed_in' : (said('code') ?? `http_${context.status}`);
  const retry = Number(record['retryAfter'] ?? context.headers.get('retry-after'));
  return new TatumServiceError(operation, {
    detail: clip(said('detail') ?? said('message') ?? `HTTP ${context.status}`),
    code,
    retryAfterSeconds: Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : null,
  });
}

/**
 * The function's HTTP answer that supabase-js hands over with its error. Read by shape, not by
 * class: a fetch other than the page's (Node's undici in tests) has a Response class of its own.
 */
function isAnswer(value: unknown): value is Response {
  return (
    isRecord(value) &&
    typeof value['status'] === 'number' &&
    typeof value['json'] === 'function' &&
    isRecord(value['headers'])
  );
}

function webhookOf(value: unknown): AddressWebhook | null {
  if (!isRecord(value)) return null;
  const { id, address, url, chain, type } = value;
  if (typeof id !== 'string' || id === '' || typeof address !== 'string' || typeof url !== 'string') {
    return null;
  }
  return {
    id,
    address,
    url,
    chain: typeof chain === 'string' ? chain : 'ETH',
    type: typeof type === 'string' ? type : 'ADDRESS_EVENT',
  };
}

function describeThrown(error: unknown): string | null {
  if (error instanceof Error) return error.message || null;
  return typeof error === 'string' ? error : null;
}

function clip(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
