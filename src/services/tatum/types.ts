import type { DataProviderFailure, DataProviderOperation } from '../../domain/errors.ts';

// The data-provider contract the machines depend on. Kept free of the SDK so
// importing it costs nothing: the ~78 KB SDK is loaded on first use only.

export type TatumNetwork = 'ethereum-sepolia' | 'ethereum';

export type TatumServiceConfig = {
  /** VITE_TATUM_API_KEY; null or '' sends no key (the local emulator needs none). */
  apiKey: string | null;
  /**
   * REST base override such as http://127.0.0.1:54321/tatum/v4/ (a missing
   * trailing slash is added); null keeps the SDK's choice. The SDK only takes
   * it from process.env.TATUM_URL, which is process-wide: see tatum-service.ts.
   */
  apiUrl: string | null;
  /** JSON-RPC node for native balances; the SDK would otherwise fetch a node list from rpc.tatum.io. */
  rpcUrl: string;
  /** Defaults to ethereum-sepolia, also for the local chain (its id only matters to the wallet). */
  network?: TatumNetwork;
  /** Retries of a 5xx answer; defaults to the SDK's 1. */
  retryCount?: number;
  /** Delay between retries; defaults to the SDK's 1000 ms. */
  retryDelayMs?: number;
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
  /** An ADDRESS_EVENT subscription: Tatum posts every transfer touching `address` to `url`. */
  createAddressWebhook(input: { address: string; url: string }): Promise<AddressWebhook>;
  /** Every subscription of the key that watches an address, across all pages. */
  listWebhooks(): Promise<AddressWebhook[]>;
  deleteWebhook(id: string): Promise<void>;
  /** Releases the SDK instance if one was made; safe before first use and twice. The next call starts afresh. */
  destroy(): Promise<void>;
}

export type TatumOperation = DataProviderOperation;

/**
 * Every failure of the service, whatever its shape on the wire. `operation` says which call failed,
 * and is what the machines word (src/machines/error-words.ts); `message` is for developers.
 * `detail` is what Tatum, the node or the SDK said, or what was wrong with their answer (null when
 * nothing is known); `code` is Tatum's errorCode when it sent one, e.g. 'subscription.not.found'.
 * Neither ever contains the API key.
 */
export class TatumServiceError extends Error implements DataProviderFailure {
  override readonly name = 'TatumServiceError';
  readonly operation: TatumOperation;
  readonly detail: string | null;
  readonly code: string | null;

  constructor(
    operation: TatumOperation,
    {
      detail = null,
      code = null,
      cause,
    }: { detail?: string | null; code?: string | null; cause?: unknown } = {},
  ) {
    super(
      detail === null ? `${operation} failed` : `${operation} failed: ${detail}`,
      cause === undefined ? undefined : { cause },
    );
    this.operation = operation;
    this.detail = detail;
    this.code = code;
  }
}
