import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../_shared/database.types.ts';
import { ADDRESS } from '../_shared/address.ts';
import type { AddressEvent } from '../_shared/address-event.ts';
import { alertKindOf, droppedWords, movedWords, wordsOf } from '../_shared/history-words.ts';
import { reply } from '../_shared/json.ts';
import { createRpcClient, RpcError } from '../_shared/rpc.ts';
import { logError } from '../_shared/log.ts';
import { readSignedEvent } from '../_shared/signed-event.ts';
import { walletChain, type WalletChain } from '../_shared/wallet-chain.ts';
import { planEvent, type PlannedRow } from './event-plan.ts';
import { notificationId } from './notification-id.ts';

// process-payments receives Tatum's address-event webhooks, in the shape Tatum documents them
// (_shared/address-event.ts), and keeps the history of the user whose profile holds the address,
// proven (link-wallet or a sign-in with Ethereum set it with wallet_verified_at), as the chain
// tells it: each event's transaction is read from the node where it touches DDEX or was sent by the
// wallet (event-plan.ts), every row is written through record_wallet_row (so the portal's own
// record-transaction call meets the same row), and the user is told of each row once. A
// redelivery after a reorganisation (`reorg: true`) corrects the rows and tells the user once. It
// is a plain Web-API handler so the same module runs on Supabase Edge Functions (Deno, see
// index.ts) and on the local stack (Node).

export type ProcessPaymentsDeps = {
  /** The secret Tatum signs x-payload-hash with. */
  webhookSecret: string;
  /** A service-role client: the function writes rows no user may write. */
  supabase: SupabaseClient<Database>;
  /** The DDEX contract; its transfers are recorded as 'DDEX', read from the receipts. */
  tokenAddress?: string | null;
  /**
   * Tatum's name of the one chain whose events are recorded (TATUM_CHAIN): the `chain` its
   * address-event bodies carry, e.g. 'ethereum-sepolia' or 'ethereum-mainnet'.
   */
  chain?: string | null;
  /**
   * The Uniswap V2 router of the DDEX/WETH market (UNISWAP_V2_ROUTER, the app's
   * VITE_UNISWAP_V2_ROUTER): the wallet's swaps on its pair are one `swap` row each.
   */
  uniswapRouter?: string | null;
  /**
   * The JSON-RPC endpoint of the chain (RPC_URL). With tokenAddress, the receipts are the truth
   * of every DDEX row; without one, each event is recorded as it stands (its transfers keyed by
   * the transaction alone).
   */
  rpcUrl?: string | null;
  /** The faucet function's wallet (FAUCET_ADDRESS): the DDEX it pays a wallet is a `faucet` row. */
  faucetAddress?: string | null;
  fetch?: typeof fetch;
};

/** The portal's default network, Sepolia, as Tatum names it in its webhook bodies. */
export const DEFAULT_TATUM_CHAIN = 'ethereum-sepolia';

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
  if (deps.tokenAddress && !ADDRESS.test(deps.tokenAddress)) {
    throw new Error('process-payments: the DDEX token must be an address (0x and 40 hex digits)');
  }
  const { webhookSecret, supabase } = deps;
  const chainName = deps.chain || DEFAULT_TATUM_CHAIN;
  const token = deps.tokenAddress?.toLowerCase() ?? null;
  const chain: WalletChain | null =
    deps.rpcUrl && deps.tokenAddress
      ? walletChain({
          rpc: createRpcClient(deps.rpcUrl, deps.fetch ? { fetch: deps.fetch } : {}),
          tokenAddress: deps.tokenAddress,
          uniswapRouter: deps.uniswapRouter ?? null,
          faucetAddress: deps.faucetAddress ?? null,
        })
      : null;

  return async (request) => {
    const read = await readSignedEvent(request, {
      name: 'process-payments',
      secret: webhookSecret,
      chain: chainName,
    });
    if (read.kind === 'refused') return read.response;
    // Another chain, or a kind the history does not hold: the log says why nothing was recorded.
    if (read.kind === 'skipped') {
      console.warn(`[process-payments] not recorded: ${read.reason}`);
      return reply(200, { received: true, recorded: 0 });
    }
    try {
      const recorded = await record(supabase, read.event, chain, token);
      return reply(200, { received: true, recorded });
    } catch (error) {
      // A non-2xx answer makes Tatum deliver again; recording is idempotent, so that is safe.
      logError('process-payments', 'recording failed', error);
      if (error instanceof RpcError) {
        return reply(503, {
          error: 'Chain unavailable',
          message: 'The blockchain node could not tell about this transaction yet; retry later',
        });
      }
      return reply(500, {
        error: 'Recording failed',
        message: 'The transfer could not be recorded; retry later',
      });
    }
  };
}

/** Records the event for the proven owner of its address; returns how many history rows were new. */
async function record(
  supabase: SupabaseClient<Database>,
  event: AddressEvent,
  chain: WalletChain | null,
  token: string | null,
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

  // Asked after the owner lookup, so an event of nobody's address never reaches the chain.
  const plan = await planEvent(event, chain, token);
  const txHash = event.txId.toLowerCase();
  let recorded = 0;
  for (const owner of owners.data) {
    if (plan.kind === 'dropped') {
      await correct(supabase, owner.id, txHash, null, []);
      continue;
    }
    // A correction moves the rows there already; then anything the chain now shows is recorded.
    if (event.reorg) await correct(supabase, owner.id, txHash, plan.blockNumber, plan.rows);
    for (const row of plan.rows) {
      if (await writeRow(supabase, owner.id, txHash, plan.blockNumber, row)) recorded += 1;
    }
  }
  return recorded;
}

/** One planned row for one owner; true when it was new. */
async function writeRow(
  supabase: SupabaseClient<Database>,
  userId: string,
  txHash: string,
  blockNumber: number,
  row: PlannedRow,
): Promise<boolean> {
  const result = await supabase.rpc('record_wallet_row', {
    p_user_id: userId,
    p_tx_hash: txHash,
    p_type: row.type,
    p_log_index: row.logIndex,
    p_status: 'confirmed',
    p_amount: row.amount,
    p_token_symbol: row.symbol,
    p_block_number: blockNumber,
    p_counterparty: row.counterparty,
    p_counter_amount: row.counterAmount,
    p_counter_symbol: row.counterSymbol,
    p_unlimited: row.unlimited,
  });
  if (result.error) throw new Error(`recording failed: ${result.error.message}`);
  // Told once when the chain confirms it, whoever wrote the row first (the portal records its own
  // swaps without a word). The id is the row's, so a redelivery, or one arriving at the same time,
  // adds nothing, and a row whose notification a crash cut off gets it with Tatum's retry. Sends
  // and fees have no words (history-words.ts).
  const words = wordsOf({ ...row, txId: txHash });
  if (words !== null) {
    const id = await notificationId(userId, { txId: txHash, logIndex: row.logIndex }, row.type);
    await notifyOnce(supabase, id, userId, words, alertKindOf(row));
  }
  return result.data === true;
}

/**
 * A reorganisation's correction of one owner's rows of the transaction: dropped (blockNumber
 * null) or confirmed in the block the node now has it in, with the amounts the chain now tells.
 * The user hears of it once, whichever of the transaction's events brought it.
 */
async function correct(
  supabase: SupabaseClient<Database>,
  userId: string,
  txHash: string,
  blockNumber: number | null,
  rows: PlannedRow[],
): Promise<void> {
  const words = blockNumber === null ? droppedWords(txHash) : movedWords(txHash, blockNumber);
  const id = await notificationId(
    userId,
    { txId: txHash, logIndex: null },
    `reorg:${blockNumber ?? 'dropped'}`,
  );
  const result = await supabase.rpc('correct_wallet_rows', {
    p_user_id: userId,
    p_tx_hash: txHash,
    p_block_number: blockNumber,
    p_amounts: rows.map((row) => ({ type: row.type, log_index: row.logIndex, amount: row.amount })),
    p_notification_id: id,
    p_title: words.title,
    p_message: words.message,
  });
  if (result.error) throw new Error(`correcting after a reorganisation failed: ${result.error.message}`);
}

/**
 * A notification under an id of its own, inserted once however often it is asked for; its kind
 * says whether its owner may have asked for it by email (migration 20261206000001 queues it).
 * A redelivery's insert is skipped by `on conflict do nothing` (PostgREST's
 * `resolution=ignore-duplicates`) rather than refused, so no unique-violation reaches the
 * database's log, and the queueing trigger, which runs after an insert, never sees a second one.
 */
async function notifyOnce(
  supabase: SupabaseClient<Database>,
  id: string,
  userId: string,
  words: { title: string; message: string },
  kind: 'transfers' | null,
): Promise<void> {
  const result = await supabase
    .from('user_notifications')
    .upsert(
      { id, user_id: userId, title: words.title, message: words.message, kind },
      { onConflict: 'id', ignoreDuplicates: true },
    );
  if (result.error) throw new Error(`notifying failed: ${result.error.message}`);
}
