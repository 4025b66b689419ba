import type { SupabaseClient } from '@supabase/supabase-js';
import { ADDRESS } from '../_shared/address.ts';
import { callerId } from '../_shared/caller.ts';
import type { Database } from '../_shared/database.types.ts';
import { readAddressBody, refuse, reply } from '../_shared/json.ts';
import { logError } from '../_shared/log.ts';
import { TatumError, type TatumApi } from '../_shared/tatum.ts';

// The portal's 'Tatum Webhooks (Demo)' on the server, where the Tatum key is: Create Hook
// subscribes the caller's proven wallet to process-payments and records the subscription as
// theirs (tatum_subscriptions); List Hooks answers the caller's own; Delete First Hook deletes one
// of the caller's own by id. Nobody reaches another user's subscriptions, and nobody reaches the
// account's (its HMAC secret, its other subscriptions) at all. A user holds at most `maxPerUser`
// subscriptions, and one whose owner has since given up the wallet is taken back when the
// wallet's new owner subscribes it (Tatum holds one per address and URL).
//
//   POST   /tatum-webhooks          {"address": "0x…"} → 200 {webhook}
//   GET    /tatum-webhooks                             → 200 {webhooks: [...]}, oldest first
//   DELETE /tatum-webhooks/<id>                        → 200 {deleted: id}
//
// Every refusal is {error, code, message}; a refusal Tatum made adds its `detail` and
// `providerCode`. Like the other functions it is a plain Web-API handler, served by Deno
// (index.ts) as deployed and by Node on the local stack's `--functions node`.

export type TatumWebhooksDeps = {
  /** A service-role client: it resolves the caller and writes rows no user may write. */
  supabase: SupabaseClient<Database>;
  tatum: TatumApi;
  /** Where Tatum posts each event: the project's process-payments function. */
  callbackUrl: string;
  /** How many subscriptions one user may hold; DEFAULT_MAX_PER_USER when absent. */
  maxPerUser?: number;
};

export type Webhook = { id: string; address: string; url: string; chain: string; type: 'ADDRESS_EVENT' };

const SUBSCRIPTION_ID = /^[\w-]{1,128}$/;
const MAX_BODY = 4096;
export const DEFAULT_MAX_PER_USER = 5;

/** Tatum's refusal (it answered with an error code) or its absence (nothing answered). */
function providerFailure(error: TatumError): Response {
  return error.code === null
    ? refuse(502, 'provider_unavailable', 'Tatum could not be reached; try again shortly', {
        detail: error.detail,
      })
    : refuse(422, 'provider_refused', 'Tatum refused the request', {
        detail: error.detail,
        providerCode: error.code,
      });
}

export function createTatumWebhooksHandler(deps: TatumWebhooksDeps): (request: Request) => Promise<Response> {
  if (!/^https?:\/\//.test(deps.callbackUrl)) throw new Error('tatum-webhooks needs the callback URL');
  const { supabase, tatum, callbackUrl } = deps;
  const maxPerUser = deps.maxPerUser ?? DEFAULT_MAX_PER_USER;

  async function provenWallet(userId: string): Promise<string | null> {
    const profile = await supabase
      .from('profiles')
      .select('wallet_address, wallet_verified_at')
      .eq('id', userId)
      .maybeSingle();
    if (profile.error) throw new Error(`profile lookup failed: ${profile.error.message}`);
    const wallet = profile.data?.wallet_verified_at ? profile.data.wallet_address : null;
    return wallet && ADDRESS.test(wallet) ? wallet : null;
  }

  async function own(userId: string): Promise<Webhook[]> {
    const rows = await supabase
      .from('tatum_subscriptions')
      .select('id, address, url, chain')
      .eq('user_id', userId)
      .order('created_at', { ascending: true })
      .order('id', { ascending: true });
    if (rows.error) throw new Error(`listing subscriptions failed: ${rows.error.message}`);
    return rows.data.map((row) => ({ ...row, type: 'ADDRESS_EVENT' }));
  }

  /**
   * Takes back, at Tatum and here, each subscription of `wallet` whose owner no longer holds it
   * (they unlinked or relinked): its events are the new owner's now. The caller's own stay.
   */
  async function takeBackStale(userId: string, wallet: string): Promise<TatumError | null> {
    const rows = await supabase
      .from('tatum_subscriptions')
      .select('id, user_id')
      .ilike('address', wallet)
      .neq('user_id', userId);
    if (rows.error) throw new Error(`listing the wallet's subscriptions failed: ${rows.error.message}`);
    for (const row of rows.data) {
      const held = await provenWallet(row.user_id);
      if (held !== null && held.toLowerCase() === wallet.toLowerCase()) continue;
      try {
        await tatum.unsubscribe(row.id);
      } catch (error) {
        if (error instanceof TatumError) return error;
        throw error;
      }
      const forgotten = await supabase.rpc('forget_tatum_subscription', {
        p_user_id: row.user_id,
        p_id: row.id,
      });
      if (forgotten.error)
        throw new Error(`forgetting a stale subscription failed: ${forgotten.error.message}`);
    }
    return null;
  }

  async function create(userId: string, request: Request): Promise<Response> {
    const body = await readAddressBody(request, MAX_BODY);
    if ('refusal' in body) return body.refusal;
    const { address } = body;
    const wallet = await provenWallet(userId);
    // Only the wallet the caller has proven is theirs may be watched on their behalf.
    if (wallet === null || wallet.toLowerCase() !== address.toLowerCase()) {
      return refuse(
        409,
        'wallet_unverified',
        'Link this wallet to your profile (sign its proof) before creating a webhook for it',
      );
    }
    if ((await own(userId)).length >= maxPerUser) {
      return refuse(
        409,
        'webhook_limit',
        `You have ${maxPerUser} webhooks already; delete one before creating another`,
        { limit: maxPerUser },
      );
    }
    const stale = await takeBackStale(userId, wallet);
    if (stale) return providerFailure(stale);
    let subscription;
    try {
      subscription = await tatum.subscribe(wallet, callbackUrl);
    } catch (error) {
      if (error instanceof TatumError) return providerFailure(error);
      throw error;
    }
    const saved = await supabase.from('tatum_subscriptions').insert({
      id: subscription.id,
      user_id: userId,
      address: wallet,
      url: subscription.url,
      chain: subscription.chain,
    });
    if (saved.error) {
      // A subscription nobody owns could be neither listed nor deleted: take it back.
      await tatum.unsubscribe(subscription.id).catch(() => false);
      throw new Error(`recording the subscription failed: ${saved.error.message}`);
    }
    const webhook: Webhook = { ...subscription, address: wallet, type: 'ADDRESS_EVENT' };
    return reply(200, { webhook });
  }

  async function remove(userId: string, id: string): Promise<Response> {
    if (!SUBSCRIPTION_ID.test(id)) return refuse(400, 'malformed', 'Not a subscription id');
    const mine = (await own(userId)).some((webhook) => webhook.id === id);
    // Another user's subscription is answered as one that does not exist.
    if (!mine) return refuse(404, 'not_found', 'You have no webhook with this id');
    try {
      // Gone at Tatum already (deleted elsewhere) is as good as deleted now.
      await tatum.unsubscribe(id);
    } catch (error) {
      if (error instanceof TatumError) return providerFailure(error);
      throw error;
    }
    const forgotten = await supabase.rpc('forget_tatum_subscription', { p_user_id: userId, p_id: id });
    if (forgotten.error) throw new Error(`forgetting the subscription failed: ${forgotten.error.message}`);
    return reply(200, { deleted: id });
  }

  const handle = async (request: Request): Promise<Response> => {
    const userId = await callerId(supabase, request);
    if (userId === null) {
      return refuse(401, 'not_signed_in', 'Sign in first: webhooks belong to a signed-in user');
    }
    const path = new URL(request.url).pathname.replace(/^.*?\/tatum-webhooks\/?/, '');
    if (path === '' && request.method === 'GET') return reply(200, { webhooks: await own(userId) });
    if (path === '' && request.method === 'POST') return create(userId, request);
    if (path !== '' && !path.includes('/') && request.method === 'DELETE') {
      let id: string;
      try {
        id = decodeURIComponent(path);
      } catch {
        // A stray '%' is the caller's mistake, not the function's.
        return refuse(400, 'malformed', 'Not a subscription id');
      }
      return remove(userId, id);
    }
    return refuse(
      405,
      'method_not_allowed',
      'GET or POST /tatum-webhooks, or DELETE /tatum-webhooks/<id>',
      {},
    );
  };

  return async (request) => {
    try {
      return await handle(request);
    } catch (error) {
      // Nothing here carries the request's headers, so the caller's token never reaches the log.
      logError('tatum-webhooks', 'failed', error);
      return refuse(500, 'internal', 'The webhook request failed; try again later');
    }
  };
}
