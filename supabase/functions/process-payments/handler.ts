import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../_shared/database.types.ts';
import type { AddressEvent } from '../_shared/address-event.ts';
import { readSignedEvent } from '../_shared/signed-event.ts';
import { notificationId } from './notification-id.ts';
import { swapLegCheck, type SwapLegCheck } from './swap-leg.ts';

// process-payments receives Tatum address-event webhooks and records each
// transfer in the history of the user whose profile holds the address, proven
// (link-wallet or a sign-in with Ethereum set it with wallet_verified_at), and
// notifies them. The DDEX leg of the wallet's own swap on the DDEX/WETH market
// is notified only: record-transaction records that swap (see swap-leg.ts). It is
// a plain Web-API handler so the same module runs on Supabase Edge Functions
// (Deno, see index.ts) and on the local stack (Node).

export type ProcessPaymentsDeps = {
  /** The secret Tatum signs x-payload-hash with. */
  webhookSecret: string;
  /** A service-role client: the function writes rows no user may write. */
  supabase: SupabaseClient<Database>;
  /** The DDEX contract; token events for it are recorded as 'DDEX' rather than the contract address. */
  tokenAddress?: string | null;
  /**
   * Tatum's name of the one chain whose events are recorded (TATUM_CHAIN): the `chain` its
   * address-event bodies carry, e.g. 'ethereum-sepolia' or 'ethereum-mainnet'.
   */
  chain?: string | null;
  /**
   * The Uniswap V2 router of the DDEX/WETH market (UNISWAP_V2_ROUTER, the app's
   * VITE_UNISWAP_V2_ROUTER), whose pair is read over rpcUrl. With it and tokenAddress, the DDEX
   * leg of a wallet's own swap on the pair is notified but gets no history row, as the `swap` row
   * record-transaction writes holds it. Without it every transfer is recorded.
   */
  uniswapRouter?: string | null;
  /** The JSON-RPC endpoint of the chain (RPC_URL); required with uniswapRouter. */
  rpcUrl?: string | null;
};

/** The portal's default network, Sepolia, as Tatum names it in its webhook bodies. */
export const DEFAULT_TATUM_CHAIN = 'ethereum-sepolia';

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
  if (deps.uniswapRouter && !ADDRESS.test(deps.uniswapRouter)) {
    throw new Error('process-payments: the Uniswap V2 router must be an address (0x and 40 hex digits)');
  }
  if (deps.uniswapRouter && !deps.rpcUrl) {
    throw new Error('process-payments needs the chain RPC URL to find the Uniswap V2 market’s swaps');
  }
  const { webhookSecret, supabase } = deps;
  const tokenAddress = deps.tokenAddress?.toLowerCase() ?? null;
  const chain = deps.chain || DEFAULT_TATUM_CHAIN;
  // Without the token no event is a DDEX transfer, so none can be a leg of the market's swaps.
  const isSwapLeg: SwapLegCheck =
    deps.uniswapRouter && deps.rpcUrl && tokenAddress
      ? swapLegCheck({ rpcUrl: deps.rpcUrl, router: deps.uniswapRouter, tokenAddress })
      : async () => false;

  return async (request) => {
    const read = await readSignedEvent(request, { name: 'process-payments', secret: webhookSecret, chain });
    if (read.kind === 'refused') return read.response;
    // Another chain means a subscription or a setting is wrong: the log says why nothing was recorded.
    if (read.kind === 'skipped') {
      console.warn(`[process-payments] not recorded: ${read.reason}`);
      return reply(200, { received: true, recorded: 0 });
    }
    try {
      const recorded = await record(supabase, read.event, tokenAddress, isSwapLeg);
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

/** Records the event for the proven owner of its address; returns for how many owners it was new. */
async function record(
  supabase: SupabaseClient<Database>,
  event: AddressEvent,
  tokenAddress: string | null,
  isSwapLeg: SwapLegCheck,
): Promise<number> {
  // Wallets are stored as proven (checksummed, or lower case from a sign-in with Ethereum),
  // so match without regard to case. ilike is a pattern match: escape its wildcards even
  // though the parser already admits only hex here. A wallet without a proof is nobody's:
  // its address says nothing about who holds the key. The unique index on the address
  // leaves at most one owner; the loop below does not rely on it.
  const owners = await supabase
    .from('profiles')
    .select('id')
    .ilike('wallet_address', event.address.replace(/[\\%_]/g, '\\$&'))
    .not('wallet_verified_at', 'is', null);
  if (owners.error) throw new Error(`profile lookup failed: ${owners.error.message}`);
  if (owners.data.length === 0) return 0;

  const entry = describeEvent(event, tokenAddress);
  // Asked after the owner lookup, so an event of nobody's address never reaches the chain.
  if (await isSwapLeg(event)) {
    let notified = 0;
    for (const owner of owners.data) {
      if (await notifyOnce(supabase, owner.id, event, entry)) notified += 1;
    }
    return notified;
  }
  // record_transfer inserts the history row and its notification in one transaction and
  // reports whether the row was new. ON CONFLICT inside it lets exactly one of several
  // repeated or concurrent deliveries win, so each owner is notified once.
  let recorded = 0;
  for (const owner of owners.data) {
    const result = await supabase.rpc('record_transfer', {
      p_user_id: owner.id,
      p_tx_hash: event.txId.toLowerCase(),
      p_type: entry.type,
      // One row per transfer: two transfers of one transaction differ by their log.
      p_log_index: event.logIndex,
      p_status: 'confirmed',
      p_amount: event.amount,
      p_token_symbol: entry.symbol,
      p_title: entry.title,
      p_message: entry.message,
    });
    if (result.error) throw new Error(`recording failed: ${result.error.message}`);
    if (result.data) recorded += 1;
  }
  return recorded;
}

/**
 * The notification of a transfer that gets no history row, as record_transfer would word it; false
 * when an earlier delivery of the event inserted it (its id is the transfer's, notification-id.ts).
 */
async function notifyOnce(
  supabase: SupabaseClient<Database>,
  userId: string,
  event: AddressEvent,
  entry: EventEntry,
): Promise<boolean> {
  const id = await notificationId(userId, event, entry.type);
  const result = await supabase
    .from('user_notifications')
    .insert({ id, user_id: userId, title: entry.title, message: entry.message });
  if (result.error?.code === UNIQUE_VIOLATION) return false;
  if (result.error) throw new Error(`notifying failed: ${result.error.message}`);
  return true;
}

const UNIQUE_VIOLATION = '23505';

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
