import type { SupabaseClient } from '@supabase/supabase-js';
import { bearerToken, isOneOfKeys } from '../_shared/caller.ts';
import type { Database } from '../_shared/database.types.ts';
import { refuse, reply } from '../_shared/json.ts';
import { errorLine, logError } from '../_shared/log.ts';
import { TatumError } from '../_shared/tatum.ts';
import { reconcileWatch, type WatchTatum } from './reconcile.ts';

// The server's Tatum subscription of every proven wallet, delivering to process-payments, so its
// history is written whether or not its user made a demo hook. The profiles trigger queues each
// change of a proven wallet (migration 20261202000002); this drains the queue: it claims the
// addresses due, reconciles each (reconcile.ts) and finishes its claim, done or failed. A failed
// address is retried later, each time later (finish_wallet_watch); one whose drain stopped midway
// is claimed again when its lease runs out. Two drains at once never take one address.
//
//   POST /watch-wallets (Authorization: Bearer <service role key>) → 200 {reconciled, failed}
//
// The callers are the project's own: a Database Webhook on the queue and a scheduled retry on a
// hosted project, the gateway on the local stack (docs/deploy.md#3-tatum). The service role key is
// no user's JWT, so the platform's JWT check is off for it (supabase/config.toml) and the key is
// checked here; a user's session is refused. The body (a webhook sends the queued row) is not
// read: a drain takes whatever is due.

export type WatchWalletsDeps = {
  /** A service-role client: the queue and the watches are no API role's. */
  supabase: SupabaseClient<Database>;
  tatum: WatchTatum;
  /** Where the server's subscriptions deliver: walletEventsUrl of the project's URL. */
  callbackUrl: string;
  /** The keys a caller may present as its bearer token: the project's service role key. */
  callerKeys: string[];
  /** How long one call goes on claiming more work; DRAIN_BUDGET_MS when absent. */
  budgetMs?: number;
};

export type DrainAnswer = {
  /** The addresses whose watch now matches their owner, lower case. */
  reconciled: string[];
  /** The addresses left for a retry. */
  failed: string[];
};

/** Well within a hosted function's wall-clock limit (150 s); what is left waits for the next call. */
export const DRAIN_BUDGET_MS = 20_000;
const BATCH = 10;
/** Longer than a batch takes; a drain that stopped holds its addresses no longer than this. */
const LEASE_SECONDS = 120;

/**
 * process-payments, with a query of its own: Tatum holds one subscription per address and URL,
 * and a demo hook subscribes the same address to the bare URL. process-payments reads no query.
 */
export function walletEventsUrl(supabaseUrl: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/process-payments?source=wallet`;
}

/** What a failed reconciliation says in the job's last_error (no key, no RPC URL: see TatumError). */
export function failureText(error: unknown): string {
  if (!(error instanceof TatumError)) return errorLine(error);
  return error.code === null
    ? `Tatum unreachable: ${error.detail ?? 'no answer'}`
    : `Tatum refused (${error.code}): ${error.detail ?? 'no detail'}`;
}

export function createWatchWalletsHandler(deps: WatchWalletsDeps): (request: Request) => Promise<Response> {
  const callerKeys = deps.callerKeys.filter((key) => key !== '');
  if (callerKeys.length === 0) throw new Error('watch-wallets needs the service role key');
  if (!/^https?:\/\//.test(deps.callbackUrl)) throw new Error('watch-wallets needs the callback URL');
  const { supabase, tatum, callbackUrl } = deps;
  const budgetMs = deps.budgetMs ?? DRAIN_BUDGET_MS;

  async function drain(): Promise<DrainAnswer> {
    const started = Date.now();
    const reconciled = new Set<string>();
    const failed = new Set<string>();
    while (Date.now() - started < budgetMs) {
      const claims = await supabase.rpc('claim_wallet_watches', {
        p_url: callbackUrl,
        p_limit: BATCH,
        p_lease_seconds: LEASE_SECONDS,
      });
      if (claims.error) throw new Error(`claiming the queue failed: ${claims.error.message}`);
      if (claims.data.length === 0) break;
      for (const { address, claim } of claims.data) {
        let problem: string | null = null;
        try {
          await reconcileWatch({ supabase, tatum, url: callbackUrl }, address);
          reconciled.add(address);
        } catch (error) {
          problem = failureText(error);
          failed.add(address);
          logError('watch-wallets', `watching ${address} failed`, error);
        }
        const finished = await supabase.rpc('finish_wallet_watch', {
          p_address: address,
          p_claim: claim,
          p_error: problem,
        });
        if (finished.error) throw new Error(`finishing a claim failed: ${finished.error.message}`);
      }
    }
    return { reconciled: [...reconciled], failed: [...failed] };
  }

  return async (request) => {
    if (!(await isOneOfKeys(bearerToken(request.headers.get('authorization')), callerKeys))) {
      return refuse(401, 'unauthorized', 'Only the project itself may drain the wallet watches');
    }
    if (request.method !== 'POST') return refuse(405, 'method_not_allowed', 'POST /watch-wallets');
    try {
      return reply(200, await drain());
    } catch (error) {
      // A claim left unfinished is taken again once its lease runs out.
      logError('watch-wallets', 'draining failed', error);
      return refuse(500, 'internal', 'The drain failed; what it claimed is retried later');
    }
  };
}
