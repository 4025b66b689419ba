import type { SupabaseClient } from 'npm:@supabase/supabase-js@2';
import type { Database } from '../../../src/services/supabase/database.types.ts';
import { parseAddressEvent, type AddressEvent } from './address-event.ts';
import { verifySignature } from './signature.ts';

// process-payments receives Tatum address-event webhooks and records each
// transfer in the history of every user whose profile holds the address. It is
// a plain Web-API handler so the same module runs on Supabase Edge Functions
// (Deno, see index.ts) and on the local stack (Node).

export type ProcessPaymentsDeps = {
  /** The secret Tatum signs x-payload-hash with. */
  webhookSecret: string;
  /** A service-role client: the function writes rows no user may write. */
  supabase: SupabaseClient<Database>;
  /** The DDEX contract; token events for it are recorded as 'DDEX' rather than the contract address. */
  tokenAddress?: string | null;
};

type TransactionInsert = Database['public']['Tables']['transactions']['Insert'];
type NotificationInsert = Database['public']['Tables']['user_notifications']['Insert'];

const JSON_HEADERS = { 'content-type': 'application/json' };
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function reply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
}

export function createProcessPaymentsHandler(
  deps: ProcessPaymentsDeps,
): (request: Request) => Promise<Response> {
  // Fail at start-up, not on the first delivery: an empty secret would make every signature check moot.
  if (!deps.webhookSecret) throw new Error('process-payments needs a webhook secret');
  const { webhookSecret, supabase } = deps;
  const tokenAddress = deps.tokenAddress?.toLowerCase() ?? null;

  return async (request) => {
    if (request.method !== 'POST') {
      return reply(405, { error: 'Method not allowed', message: 'process-payments accepts POST only' });
    }
    // The signature covers the bytes as sent, so verify before decoding or parsing anything.
    const raw = new Uint8Array(await request.arrayBuffer());
    if (!(await verifySignature(webhookSecret, raw, request.headers.get('x-payload-hash')))) {
      return reply(401, {
        error: 'Invalid signature',
        message: 'x-payload-hash is missing or is not the HMAC-SHA512 of the body under the webhook secret',
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch {
      return reply(400, { error: 'Malformed body', message: 'The request body is not valid JSON' });
    }
    const parsed = parseAddressEvent(body);
    if (!parsed.ok) {
      return reply(400, {
        error: 'Malformed body',
        message: 'The address event is not valid',
        problems: parsed.problems,
      });
    }
    try {
      const recorded = await record(supabase, parsed.event, tokenAddress);
      return reply(200, { received: true, recorded });
    } catch (error) {
      // A non-2xx answer makes Tatum deliver again; recording is idempotent, so that is safe.
      console.error('[process-payments] recording failed:', error);
      return reply(500, {
        error: 'Recording failed',
        message: 'The transfer could not be recorded; retry later',
      });
    }
  };
}

/** Records the event for every owner of its address; returns how many rows were new. */
async function record(
  supabase: SupabaseClient<Database>,
  event: AddressEvent,
  tokenAddress: string | null,
): Promise<number> {
  // Wallets are stored as the user typed or the wallet reported them (checksummed or
  // lower case), so match without regard to case. ilike is a pattern match: escape
  // its wildcards even though the parser already admits only hex here.
  const owners = await supabase
    .from('profiles')
    .select('id')
    .ilike('wallet_address', event.address.replace(/[\\%_]/g, '\\$&'));
  if (owners.error) throw new Error(`profile lookup failed: ${owners.error.message}`);
  if (owners.data.length === 0) return 0;

  const entry = describeEvent(event, tokenAddress);
  const rows: TransactionInsert[] = owners.data.map((owner) => ({
    user_id: owner.id,
    type: entry.type,
    status: 'confirmed',
    amount: event.amount,
    token_symbol: entry.symbol,
    tx_hash: event.txId,
  }));
  // ON CONFLICT DO NOTHING returns only the rows this request inserted. Notifying
  // exactly those users (rather than checking for an existing row first) is what
  // makes repeated and concurrent deliveries notify once: Postgres lets one insert win.
  const inserted = await supabase
    .from('transactions')
    .upsert(rows, { onConflict: 'user_id,tx_hash,type', ignoreDuplicates: true })
    .select('user_id');
  if (inserted.error) throw new Error(`transaction insert failed: ${inserted.error.message}`);
  if (inserted.data.length === 0) return 0;

  const notifications: NotificationInsert[] = inserted.data.map((row) => ({
    user_id: row.user_id,
    title: entry.title,
    message: entry.message,
  }));
  const notified = await supabase.from('user_notifications').insert(notifications);
  if (notified.error) throw new Error(`notification insert failed: ${notified.error.message}`);
  return inserted.data.length;
}

type EventEntry = { type: string; symbol: string; title: string; message: string };

/** The history row's type and symbol and the notification text for one event. */
export function describeEvent(event: AddressEvent, tokenAddress: string | null): EventEntry {
  const symbol =
    event.type === 'token' && tokenAddress !== null && event.asset.toLowerCase() === tokenAddress
      ? 'DDEX'
      : event.asset;
  // An unknown token's "symbol" is its contract address: shorten it for reading.
  const label = ADDRESS.test(symbol) ? shortAddress(symbol) : symbol;
  const outgoing = event.amount.startsWith('-');
  const amount = `${outgoing ? event.amount.slice(1) : event.amount} ${label}`;
  const tx = `(tx ${event.txId.slice(0, 10)}…)`;
  const counter = event.counterAddress === null ? null : shortAddress(event.counterAddress);

  if (event.type === 'fee') {
    return {
      type: 'fee',
      symbol,
      title: `${label} Fee Paid`,
      message: `You paid a network fee of ${amount} ${tx}.`,
    };
  }
  // Words, not codes: the portal shows the type with underscores turned into spaces.
  if (outgoing) {
    return {
      type: `${event.type}_sent`,
      symbol,
      title: `${label} Sent`,
      message: `You sent ${amount}${counter === null ? '' : ` to ${counter}`} ${tx}.`,
    };
  }
  return {
    type: `${event.type}_received`,
    symbol,
    title: `${label} Received`,
    message: `You received ${amount}${counter === null ? '' : ` from ${counter}`} ${tx}.`,
  };
}

function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}
