import { randomBytes } from 'node:crypto';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';

// The load script plays Tatum: address-event webhooks (the legacy body the
// emulator's dispatcher sends) POSTed to the gateway's process-payments
// function, signed with x-payload-hash under the gateway's webhook secret.

export type DeliveryAnswer = { status: number; recorded: number | null; body: string };

const COUNTERPARTY = '0x1234567890abcdef1234567890ABCDEF12345678';

export function randomAddress(): string {
  return `0x${randomBytes(20).toString('hex')}`;
}

export function randomTxId(): string {
  return `0x${randomBytes(32).toString('hex')}`;
}

/** The notification text names a transfer by its first 10 characters ("0x" and 8 hex digits). */
export function txTag(txId: string): string {
  return txId.slice(0, 10).toLowerCase();
}

const TAG_IN_MESSAGE = /\(tx (0x[0-9a-fA-F]{8})…\)/;

/** The transfer a notification message is about, as txTag gives it (null if none). */
export function tagInMessage(message: unknown): string | null {
  if (typeof message !== 'string') return null;
  return TAG_IN_MESSAGE.exec(message)?.[1]?.toLowerCase() ?? null;
}

/**
 * An incoming transfer to `address`: with `ddexAmount` a DDEX transfer (a real one: its receipt
 * is read), else ETH, whose event is recorded as it stands.
 */
export function addressEventBody(options: {
  address: string;
  txId: string;
  sequence: number;
  tokenAddress: string;
  ddexAmount: string | null;
}): string {
  const token = options.ddexAmount !== null;
  return JSON.stringify({
    address: options.address,
    amount: options.ddexAmount ?? `${1 + (options.sequence % 50)}.5`,
    asset: token ? options.tokenAddress : 'ETH',
    blockNumber: 1_000 + options.sequence,
    counterAddress: COUNTERPARTY,
    txId: options.txId,
    type: token ? 'fungible' : 'native',
    chain: 'ethereum-sepolia',
    subscriptionType: 'ADDRESS_EVENT',
  });
}

export function createTatum(options: { gatewayUrl: string; webhookSecret: string; timeoutMs: number }) {
  const url = `${options.gatewayUrl}/functions/v1/process-payments`;
  return {
    async deliver(body: string): Promise<DeliveryAnswer> {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-payload-hash': await signPayload(options.webhookSecret, body),
        },
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = await response.text();
      let recorded: number | null = null;
      try {
        const parsed = JSON.parse(text) as { recorded?: unknown };
        if (typeof parsed.recorded === 'number') recorded = parsed.recorded;
      } catch {
        // A body that is not JSON leaves recorded unknown; the status says what went wrong.
      }
      return { status: response.status, recorded, body: text.slice(0, 200) };
    },
  };
}

export type Tatum = ReturnType<typeof createTatum>;
