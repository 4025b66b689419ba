// What watch-wallets does about one address, from who holds it proven now (at most one profile:
// wallets are unique) and the server's watch of it (wallet_watches). Pure, so the decision is
// tested apart from Tatum and the database.

export type WalletWatch = {
  /** Lower case. */
  address: string;
  user_id: string;
  url: string;
  subscription_id: string | null;
  state: 'subscribing' | 'active';
};

export type WatchPlan =
  /** Nobody holds the address proven and the server does not watch it. */
  | { action: 'none' }
  /** The watch is as it should be. */
  | { action: 'keep' }
  /** The same subscription, now the address's new owner's (relinked from one user to another). */
  | { action: 'reassign'; userId: string }
  /**
   * Subscribe the address for `userId`. `resume`: an earlier drain stopped after asking Tatum,
   * which may hold the subscription already. `replace`: a watch made for another URL, to end first.
   */
  | { action: 'subscribe'; userId: string; resume: boolean; replace: WalletWatch | null }
  /** End the watch at Tatum and forget it: nobody holds the address proven any more. */
  | { action: 'end'; watch: WalletWatch };

export function planWatch(owner: string | null, watch: WalletWatch | null, url: string): WatchPlan {
  if (owner === null) return watch === null ? { action: 'none' } : { action: 'end', watch };
  if (watch === null) return { action: 'subscribe', userId: owner, resume: false, replace: null };
  if (watch.url !== url) return { action: 'subscribe', userId: owner, resume: false, replace: watch };
  if (watch.state === 'subscribing') {
    return { action: 'subscribe', userId: owner, resume: true, replace: null };
  }
  return watch.user_id === owner ? { action: 'keep' } : { action: 'reassign', userId: owner };
}
