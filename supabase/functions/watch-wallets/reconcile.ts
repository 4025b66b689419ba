import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../_shared/database.types.ts';
import { TatumError, type TatumApi, type TatumSubscriptionList } from '../_shared/tatum.ts';
import { planWatch, type WalletWatch, type WatchPlan } from './plan.ts';

// Makes the server's watch of one address match who holds it proven: subscribes it at Tatum,
// ends it there, or hands it to the address's new owner, and records the outcome in
// wallet_watches. Every step may be repeated after a failure: a watch is marked 'subscribing'
// before Tatum is asked and 'active' once its id is known, and what Tatum holds already is looked
// up rather than made twice.

/** What of the Tatum account a watch needs. */
export type WatchTatum = Pick<TatumApi, 'subscribe' | 'unsubscribe'> & TatumSubscriptionList;

export type ReconcileDeps = {
  /** A service-role client: no API role may read or write the watches. */
  supabase: SupabaseClient<Database>;
  tatum: WatchTatum;
  /** Where the server's subscriptions deliver. */
  url: string;
};

type WatchFields = Database['public']['Tables']['wallet_watches']['Update'];

/** Reconciles the watch of `address` (lower case); answers what it did. */
export async function reconcileWatch(deps: ReconcileDeps, address: string): Promise<WatchPlan['action']> {
  const { supabase, tatum, url } = deps;

  // ilike, not eq: a profile holds its wallet in any letter case, and the local stack's REST
  // layer finds no row by eq on a 0x… value. An address is hex only: it holds no wildcard.
  async function provenOwner(): Promise<string | null> {
    const owners = await supabase
      .from('profiles')
      .select('id')
      .ilike('wallet_address', address)
      .not('wallet_verified_at', 'is', null);
    if (owners.error) throw new Error(`reading the owner failed: ${owners.error.message}`);
    return owners.data[0]?.id ?? null;
  }

  async function currentWatch(): Promise<WalletWatch | null> {
    const rows = await supabase
      .from('wallet_watches')
      .select('address, user_id, url, subscription_id, state')
      .ilike('address', address);
    if (rows.error) throw new Error(`reading the watch failed: ${rows.error.message}`);
    return rows.data[0] ?? null;
  }

  async function update(fields: WatchFields): Promise<void> {
    const saved = await supabase
      .from('wallet_watches')
      .update({ ...fields, updated_at: new Date().toISOString() })
      .ilike('address', address);
    if (saved.error) throw new Error(`recording the watch failed: ${saved.error.message}`);
  }

  /** The id of the subscription of `watched` to `target` that Tatum holds, if it holds one. */
  async function heldAt(watched: string, target: string): Promise<string | null> {
    const held = await tatum.subscriptionsOf(watched);
    return held.find((subscription) => subscription.url === target)?.id ?? null;
  }

  /** Ends `watch` at Tatum; one that Tatum no longer holds is ended already. */
  async function endAtTatum(watch: WalletWatch): Promise<void> {
    const id = watch.subscription_id ?? (await heldAt(watch.address, watch.url));
    if (id !== null) await tatum.unsubscribe(id);
  }

  /**
   * A new subscription's id, or, when Tatum refuses one because it holds the address with this URL
   * already (a drain stopped before recording it), that one's.
   */
  async function subscribe(): Promise<string> {
    try {
      return (await tatum.subscribe(address, url)).id;
    } catch (error) {
      if (!(error instanceof TatumError) || error.code === null) throw error;
      const held = await heldAt(address, url).catch(() => null);
      if (held === null) throw error;
      return held;
    }
  }

  const [owner, watch] = await Promise.all([provenOwner(), currentWatch()]);
  const plan = planWatch(owner, watch, url);
  switch (plan.action) {
    case 'none':
    case 'keep':
      break;
    case 'reassign':
      await update({ user_id: plan.userId });
      break;
    case 'end': {
      await endAtTatum(plan.watch);
      const forgotten = await supabase.rpc('forget_wallet_watch', { p_address: address });
      if (forgotten.error) throw new Error(`forgetting the watch failed: ${forgotten.error.message}`);
      break;
    }
    case 'subscribe': {
      if (plan.replace) await endAtTatum(plan.replace);
      if (!plan.resume) {
        const started = await supabase.from('wallet_watches').upsert(
          {
            address,
            user_id: plan.userId,
            url,
            subscription_id: null,
            state: 'subscribing',
            updated_at: new Date().toISOString(),
          },
          { onConflict: 'address' },
        );
        if (started.error) throw new Error(`recording the watch failed: ${started.error.message}`);
      }
      const id = (plan.resume ? await heldAt(address, url) : null) ?? (await subscribe());
      await update({ user_id: plan.userId, subscription_id: id, state: 'active' });
      break;
    }
  }
  return plan.action;
}
