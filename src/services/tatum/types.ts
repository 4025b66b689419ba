import type { DataProviderFailure, DataProviderOperation } from '../../domain/errors.ts';

// The data-provider contract the machines depend on. The provider is Tatum, behind the project's
// Edge Functions (native-balance, tatum-webhooks), which hold its key: the browser has neither the
// key nor the SDK (docs/reliability-and-security.md#the-tatum-key).

/** The slice of a supabase-js client the service calls functions through (its session, its key). */
export type FunctionsClient = {
  functions: {
    invoke(
      name: string,
      options: { method: 'GET' | 'POST' | 'DELETE'; body?: Record<string, unknown> },
    ): Promise<{ data: unknown; error: unknown }>;
  };
};

export type TatumServiceConfig = {
  /** The page's one supabase-js client, loaded on first use: the functions see its session. */
  client: () => Promise<FunctionsClient>;
};

export type NativeBalance = {
  /** Plain decimal in the network's unit (ETH), never exponent notation: '1.5', '0.000000000000000001'. */
  balance: string;
  asset: string;
};

export type AddressWebhook = {
  id: string;
  address: string;
  url: string;
  /** Tatum's notification chain code, e.g. 'ETH'. */
  chain: string;
  /** Subscription type, e.g. 'ADDRESS_EVENT'. */
  type: string;
};

export interface TatumService {
  getNativeBalance(address: string): Promise<NativeBalance>;
  /**
   * An ADDRESS_EVENT subscription of the signed-in user's proven wallet `address`: Tatum posts every
   * transfer touching it to the process-payments function (the server chooses the URL).
   */
  createAddressWebhook(input: { address: string }): Promise<AddressWebhook>;
  /** The signed-in user's own subscriptions, oldest first. */
  listWebhooks(): Promise<AddressWebhook[]>;
  /** Deletes one of the signed-in user's own subscriptions. */
  deleteWebhook(id: string): Promise<void>;
  /** Releases what the service holds; safe before first use and twice. */
  destroy(): Promise<void>;
}

export type TatumOperation = DataProviderOperation;

/**
 * Every failure of the service, whatever its shape on the wire. `operation` says which call failed,
 * and is what the machines word (src/machines/error-words.ts); `message` is for developers.
 * `detail` is what the function or Tatum said, or what was wrong with their answer (null when
 * nothing is known); `code` is the function's refusal code ('not_signed_in', 'wallet_unverified',
 * 'rate_limited', 'provider_refused', …) when it gave one. `retryAfterSeconds` comes with
 * 'rate_limited'. Neither ever contains the API key, which the browser does not have.
 */
export class TatumServiceError extends Error implements DataProviderFailure {
  override readonly name = 'TatumServiceError';
  readonly operation: TatumOperation;
  readonly detail: string | null;
  readonly code: string | null;
  readonly retryAfterSeconds: number | null;

  constructor(
    operation: TatumOperation,
    {
      detail = null,
      code = null,
      retryAfterSeconds = null,
      cause,
    }: {
      detail?: string | null;
      code?: string | null;
      retryAfterSeconds?: number | null;
      cause?: unknown;
    } = {},
  ) {
    super(
      detail === null ? `${operation} failed` : `${operation} failed: ${detail}`,
      cause === undefined ? undefined : { cause },
    );
    this.operation = operation;
    this.detail = detail;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
