import type { SupabaseClient } from '@supabase/supabase-js';
import { ADDRESS } from '../_shared/address.ts';
import { MAX_JSON_BODY, readTextLimited } from '../_shared/body.ts';
import { bearerToken, callerId } from '../_shared/caller.ts';
import type { Database } from '../_shared/database.types.ts';
import { reply } from '../_shared/json.ts';
import { logError } from '../_shared/log.ts';
import { createRpcClient, RpcError } from '../_shared/rpc.ts';
import { swappingPools, tradesWithPool } from '../_shared/swap-log.ts';
import { walletChain } from '../_shared/wallet-chain.ts';

// record-transaction puts a signed-in user's own DDEX send or swap in their history as
// soon as it is mined, without waiting for Tatum's webhook. Nothing the caller
// says is trusted but the hash: the rows come from the chain's receipt, read as
// process-payments reads it (_shared/wallet-chain.ts), so the two writers meet on one
// row whichever comes first. A swap of the wallet on the DDEX/WETH Uniswap V2 pair is
// one `swap` row with both legs.
// Like process-payments it is a plain Web-API handler, so the same module runs
// on Supabase Edge Functions (Deno, see index.ts) and on the local stack (Node).

export type RecordTransactionDeps = {
  /** A service-role client: it resolves the caller's token and writes rows no user may write. */
  supabase: SupabaseClient<Database>;
  /** The JSON-RPC endpoint of the chain DDEX lives on. */
  rpcUrl: string;
  /** The DDEX contract; only its Transfer logs are recorded. */
  tokenAddress: string;
  /**
   * The Uniswap V2 router the portal trades through (its VITE_UNISWAP_V2_ROUTER); the DDEX/WETH
   * pair is read from it. Without one, swaps are refused rather than recorded as sends.
   */
  uniswapRouter?: string | null;
  /** The faucet function's wallet (FAUCET_ADDRESS): the DDEX it pays a wallet is a `faucet` row. */
  faucetAddress?: string | null;
};

/** A history row this function writes, as the reply reports it: one per DDEX transfer or swap. */
export type RecordedTransaction = {
  tx_hash: string;
  /** The transfer's (or the swap's) log in its block (null only if the node left it out of the receipt). */
  log_index: number | null;
  type: 'token_sent' | 'swap';
  amount: string;
  token_symbol: 'DDEX';
  status: 'confirmed';
  block_number: number;
  /** The recipient of a send; null for a swap. */
  counterparty: string | null;
  /** A swap's ETH leg, signed from the wallet's side; null for a send. */
  counter_amount: string | null;
  counter_symbol: 'ETH' | null;
};

export type ParsedRequest = { ok: true; txHash: string } | { ok: false; message: string };

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

export function createRecordTransactionHandler(
  deps: RecordTransactionDeps,
): (request: Request) => Promise<Response> {
  // Fail at start-up, not on the first request: without these every call would end in a 5xx.
  if (!deps.rpcUrl) throw new Error('record-transaction needs the chain RPC URL');
  if (!ADDRESS.test(deps.tokenAddress)) {
    throw new Error('record-transaction needs the DDEX token address (0x and 40 hex digits)');
  }
  if (deps.uniswapRouter && !ADDRESS.test(deps.uniswapRouter)) {
    throw new Error('record-transaction: the Uniswap V2 router must be an address (0x and 40 hex digits)');
  }
  const { supabase, tokenAddress } = deps;
  const chain = walletChain({
    rpc: createRpcClient(deps.rpcUrl),
    tokenAddress,
    uniswapRouter: deps.uniswapRouter ?? null,
    faucetAddress: deps.faucetAddress ?? null,
  });

  const handle = async (request: Request): Promise<Response> => {
    if (bearerToken(request.headers.get('authorization')) === null) {
      return reply(401, {
        error: 'Unauthorized',
        message: 'Sign in first: the request needs the bearer token of a signed-in user',
      });
    }
    const userId = await callerId(supabase, request);
    if (!userId) {
      return reply(401, {
        error: 'Unauthorized',
        message: 'The bearer token is not a signed-in user’s session; sign in again',
      });
    }

    const text = await readTextLimited(request, MAX_JSON_BODY);
    if (text === null) {
      return reply(413, {
        error: 'Payload too large',
        message: `The request body is larger than ${MAX_JSON_BODY / 1024} KB; send {"txHash": "0x…"}`,
      });
    }
    const parsed = parseRecordRequest(text);
    if (!parsed.ok) return reply(400, { error: 'Malformed body', message: parsed.message });
    // Hashes are hex and case-free; one spelling keeps a transfer’s key unique across both writers.
    const txHash = parsed.txHash.toLowerCase();

    const profile = await supabase
      .from('profiles')
      .select('wallet_address, wallet_verified_at')
      .eq('id', userId)
      .maybeSingle();
    if (profile.error) throw new Error(`profile lookup failed: ${profile.error.message}`);
    // A wallet without a proof (link-wallet, or a sign-in with Ethereum) says nothing about who
    // holds its key, so it is no wallet here: the user is asked to link one.
    const wallet = profile.data?.wallet_verified_at ? (profile.data.wallet_address ?? '') : '';
    if (!ADDRESS.test(wallet)) {
      return reply(409, {
        error: 'No wallet linked',
        message:
          wallet === ''
            ? 'Link a wallet to your profile before recording transfers'
            : 'The wallet on your profile is not a valid address; link your wallet again before recording transfers',
      });
    }

    const mined = await chain.mined(txHash);
    // The portal calls only after its own wait for the receipt, so a missing one is an error, not a wait.
    if (mined === null) {
      return reply(404, {
        error: 'Transaction not found',
        message: 'No mined transaction with this hash was found on the chain',
      });
    }
    if (mined.receipt.status === 'reverted') {
      return reply(422, {
        error: 'Transaction reverted',
        message: 'This transaction failed on chain and moved no tokens, so there is nothing to record',
      });
    }
    // What the caller did: its sends and its own swaps. What it received, or approved, the server
    // records from Tatum's events; this call is the portal's shortcut for its own actions.
    const rows: RecordedTransaction[] = (await chain.activity(mined, wallet))
      .filter((row) => row.type === 'swap' || row.type === 'token_sent')
      .map((row) => ({
        tx_hash: txHash,
        log_index: row.logIndex,
        type: row.type as RecordedTransaction['type'],
        amount: row.amount,
        token_symbol: 'DDEX',
        status: 'confirmed',
        block_number: mined.blockNumber,
        counterparty: row.counterparty,
        counter_amount: row.counterAmount,
        counter_symbol: row.counterAmount === null ? null : 'ETH',
      }));
    if (rows.length === 0) {
      const pools = swappingPools(mined.receipt);
      const traded = tradesWithPool(mined.receipt, tokenAddress, wallet, pools);
      const swapped = traded && mined.sender !== wallet.toLowerCase() ? 'not own' : traded;
      return reply(422, { error: 'Not a DDEX transfer', message: refusal(swapped, !!deps.uniswapRouter) });
    }

    // No title: the user already saw it go out, so this path notifies no one (process-payments
    // tells of a swap once the chain confirms it). If the webhook recorded a row first,
    // record_wallet_row says false.
    let recorded = false;
    for (const transaction of rows) {
      const result = await supabase.rpc('record_wallet_row', {
        p_user_id: userId,
        p_tx_hash: transaction.tx_hash,
        p_type: transaction.type,
        p_log_index: transaction.log_index,
        p_status: transaction.status,
        p_amount: transaction.amount,
        p_token_symbol: transaction.token_symbol,
        p_block_number: transaction.block_number,
        p_counterparty: transaction.counterparty,
        p_counter_amount: transaction.counter_amount,
        p_counter_symbol: transaction.counter_symbol,
      });
      if (result.error) throw new Error(`recording failed: ${result.error.message}`);
      recorded ||= result.data === true;
    }
    return reply(200, { recorded, transactions: rows });
  };

  return async (request) => {
    if (request.method !== 'POST') {
      return reply(
        405,
        { error: 'Method not allowed', message: 'record-transaction accepts POST only' },
        { allow: 'POST' },
      );
    }
    try {
      return await handle(request);
    } catch (error) {
      // Neither error carries the request's headers, so the caller's token never reaches the log.
      logError('record-transaction', 'failed', error);
      if (error instanceof RpcError) {
        return reply(502, {
          error: 'Chain unavailable',
          message: 'The blockchain node could not be asked about this transaction; try again shortly',
        });
      }
      return reply(500, {
        error: 'Recording failed',
        message: 'The transfer could not be recorded; try again later',
      });
    }
  };
}

/** Why nothing was recorded: a swap made by another wallet, a swap the server does not record, or neither. */
function refusal(swapped: boolean | 'not own', marketConfigured: boolean): string {
  if (swapped === 'not own') return 'This swap was not made from your wallet';
  if (!swapped) return 'This transaction is not a DDEX transfer from your wallet';
  return marketConfigured
    ? 'This transaction is a swap outside the DDEX/WETH Uniswap V2 market, the only one recorded'
    : 'This transaction is a swap, and swaps are not recorded: no Uniswap V2 market is configured here';
}

/** The body `{ "txHash": "0x…" }`, or what is wrong with it in words the caller can act on. */
export function parseRecordRequest(text: string): ParsedRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, message: 'The request body is not valid JSON; send {"txHash": "0x…"}' };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, message: 'The request body must be a JSON object: {"txHash": "0x…"}' };
  }
  const { txHash } = body as { txHash?: unknown };
  if (txHash === undefined || txHash === null || txHash === '') {
    return { ok: false, message: 'txHash is required' };
  }
  if (typeof txHash !== 'string' || !TX_HASH.test(txHash)) {
    return { ok: false, message: 'txHash must be a transaction hash: 0x followed by 64 hex digits' };
  }
  return { ok: true, txHash };
}
