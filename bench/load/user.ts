import { DDEX_PER_TRANSFER } from './ddex-transfers.ts';
import {
  createClient,
  type RealtimePostgresChangesPayload,
  type SupabaseClient,
} from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { Database } from '../../src/domain/database.types.ts';
import type { Metrics, OpKind } from './metrics.ts';
import type { StackDescription } from './stack.ts';
import {
  addressEventBody,
  randomTxId,
  tagInMessage,
  txTag,
  type DeliveryAnswer,
  type Tatum,
} from './tatum.ts';

// One simulated person: signs up, has a proven wallet (set by the server as
// link-wallet sets one after a proof, which this load is not about), saves a
// profile carrying that wallet back as the portal does, keeps a
// realtime subscription on their own notifications (as the portal does), then
// until the deadline lists notifications and transactions, saves the profile
// again and now and then receives a transfer, which the load script delivers
// as Tatum would. Every notification that arrives is matched to the transfer
// it is about, so losses and duplicates can be counted afterwards.

type NotificationRow = Database['public']['Tables']['user_notifications']['Row'];

/** How a transfer's webhook is sent: once, twice one after the other, or twice at the same time. */
export type DeliveryMode = 'once' | 'repeated' | 'concurrent';

export type Delivery = {
  tag: string;
  txId: string;
  mode: DeliveryMode;
  /** performance.now() when the first copy was sent. */
  sentAt: number;
  /** At least one copy was answered 2xx: the sender (Tatum) considers it delivered. */
  acknowledged: boolean;
  /** Sum of `recorded` over the copies answered 2xx: 1 when recorded exactly once. */
  recorded: number;
  /** performance.now() of each realtime INSERT about this transfer. */
  seenAt: number[];
};

export type UserOptions = {
  index: number;
  stack: StackDescription;
  wallet: string;
  /** Real DDEX transfers to the wallet, mined before the load, delivered in turn (ddex-transfers.ts). */
  ddexTransfers: string[];
  /** The service role's client, which sets the user's wallet as link-wallet would. */
  service: SupabaseClient<Database>;
  password: string;
  metrics: Metrics;
  tatum: Tatum;
  /** performance.now() after which the user starts nothing new. */
  deadline: number;
  thinkMs: readonly [number, number];
  /** A transfer arrives every `deliveryEvery` rounds. */
  deliveryEvery: number;
  requestTimeoutMs: number;
  subscribeTimeoutMs: number;
};

const LIST_LIMIT = 20;

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, Math.max(0, ms)));

/** fetch with a time limit, so a hung gateway fails an operation instead of stalling the run. */
function fetchWithin(timeoutMs: number): typeof fetch {
  return (input, init) => {
    const limit = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, limit]) : limit;
    return fetch(input, { ...init, signal });
  };
}

function httpProblem(answer: { error: { message: string } | null; status: number }): string | null {
  if (answer.error) return `HTTP ${answer.status}: ${answer.error.message}`;
  return answer.status >= 200 && answer.status < 300 ? null : `HTTP ${answer.status}`;
}

export class SimulatedUser {
  readonly deliveries = new Map<string, Delivery>();
  /** Realtime rows this user received that match none of its transfers, or are not its own. */
  readonly unexpected: string[] = [];
  /** Channel states other than SUBSCRIBED after the first SUBSCRIBED (dropped subscriptions). */
  readonly channelTrouble: string[] = [];
  readonly email: string;
  id: string | null = null;
  private readonly client: SupabaseClient<Database>;
  private closing = false;

  constructor(private readonly options: UserOptions) {
    this.email = `load-${options.index}-${Math.random().toString(36).slice(2, 10)}@example.com`;
    this.client = createClient<Database>(options.stack.url, options.stack.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
      global: { fetch: fetchWithin(options.requestTimeoutMs) },
    });
  }

  async run(): Promise<void> {
    if (!(await this.signUp())) return;
    if (!(await this.proveWallet())) return;
    await this.upsertProfile(0);
    await this.subscribe();
    for (let round = 1; !this.timeUp(); round++) {
      const steps: (() => Promise<unknown>)[] = [
        () => this.listNotifications(),
        () => this.listTransactions(),
        () => this.upsertProfile(round),
      ];
      if (round % this.options.deliveryEvery === 0) steps.push(() => this.receiveTransfer());
      for (const step of steps) {
        await this.think();
        if (this.timeUp()) return;
        await step();
      }
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.client.removeAllChannels().catch(() => undefined);
    this.client.realtime.disconnect();
  }

  private timeUp(): boolean {
    return performance.now() >= this.options.deadline;
  }

  private think(): Promise<void> {
    const [min, max] = this.options.thinkMs;
    const pause = min + Math.random() * (max - min);
    return sleep(Math.min(pause, this.options.deadline - performance.now()));
  }

  private async signUp(): Promise<boolean> {
    const answer = await this.options.metrics.measure(
      'sign up',
      () => this.client.auth.signUp({ email: this.email, password: this.options.password }),
      ({ data, error }) => (error ? error.message : data.session ? null : 'signed up without a session'),
    );
    this.id = answer?.data.user?.id ?? null;
    return this.id !== null && answer?.data.session != null;
  }

  /** Only a proven wallet's owner is notified (process-payments), and a client cannot set one. */
  private async proveWallet(): Promise<boolean> {
    const { error } = await this.options.service.from('profiles').upsert(
      {
        id: this.requireId(),
        wallet_address: this.options.wallet,
        wallet_verified_at: new Date().toISOString(),
      },
      { onConflict: 'id' },
    );
    if (error) this.options.metrics.fail('profile upsert', `proving the wallet: ${error.message}`);
    return error === null;
  }

  private upsertProfile(round: number) {
    const id = this.requireId();
    return this.options.metrics.measure(
      'profile upsert',
      async () =>
        this.client
          .from('profiles')
          .upsert(
            {
              id,
              email: this.email,
              wallet_address: this.options.wallet,
              username: `load_${this.options.index}`,
              full_name: `Load user ${this.options.index} (round ${round})`,
            },
            { onConflict: 'id' },
          )
          .select()
          .single(),
      httpProblem,
    );
  }

  private listNotifications() {
    const id = this.requireId();
    return this.options.metrics.measure(
      'list notifications',
      async () =>
        this.client
          .from('user_notifications')
          .select('*')
          .eq('user_id', id)
          .order('created_at', { ascending: false })
          .limit(LIST_LIMIT),
      httpProblem,
    );
  }

  private listTransactions() {
    const id = this.requireId();
    return this.options.metrics.measure(
      'list transactions',
      async () =>
        this.client
          .from('transactions')
          .select('*')
          .eq('user_id', id)
          .order('created_at', { ascending: false })
          .limit(LIST_LIMIT),
      httpProblem,
    );
  }

  /** Subscribes as the portal does (every event on the user's own rows) and waits for SUBSCRIBED. */
  private async subscribe(): Promise<void> {
    const id = this.requireId();
    let confirmed = false;
    const channel = this.client
      .channel(`user_notifications:${id}:load`)
      .on<NotificationRow>(
        'postgres_changes',
        { event: '*', schema: 'public', table: 'user_notifications', filter: `user_id=eq.${id}` },
        (payload) => this.onChange(payload),
      );
    await this.options.metrics.measure(
      'realtime subscribe',
      () =>
        new Promise<string>((settle) => {
          const timer = setTimeout(
            () => settle(`no SUBSCRIBED within ${this.options.subscribeTimeoutMs} ms`),
            this.options.subscribeTimeoutMs,
          );
          channel.subscribe((status, error) => {
            if (this.closing) return;
            if (status === 'SUBSCRIBED') {
              if (!confirmed) {
                confirmed = true;
                clearTimeout(timer);
                settle(status);
              }
              return;
            }
            const state = `${status}${error ? ` (${error.message})` : ''}`;
            if (confirmed) this.channelTrouble.push(state);
            else {
              clearTimeout(timer);
              settle(state);
            }
          });
        }),
      (outcome) => (outcome === 'SUBSCRIBED' ? null : outcome),
    );
  }

  private onChange(payload: RealtimePostgresChangesPayload<NotificationRow>): void {
    if (payload.eventType !== 'INSERT') return;
    const at = performance.now();
    const row = payload.new;
    if (row.user_id !== this.id) {
      this.unexpected.push(`row of another user ${String(row.user_id)}`);
      return;
    }
    const tag = tagInMessage(row.message);
    const delivery = tag === null ? undefined : this.deliveries.get(tag);
    if (!delivery) {
      this.unexpected.push(`notification about no transfer of this user: ${String(row.message)}`);
      return;
    }
    delivery.seenAt.push(at);
  }

  /** A new transfer to this user's wallet, delivered by "Tatum" once or twice. */
  private async receiveTransfer(): Promise<void> {
    const sequence = this.deliveries.size;
    // Every other delivery is DDEX, a transfer mined for this user before the load, while any last.
    const ddexTx = sequence % 2 === 1 ? this.options.ddexTransfers.shift() : undefined;
    let txId = ddexTx ?? randomTxId();
    // Notifications name a transfer by its first 8 hex digits: keep them unique per user.
    while (this.deliveries.has(txTag(txId))) txId = randomTxId();
    const mode: DeliveryMode = sequence % 4 === 1 ? 'repeated' : sequence % 4 === 3 ? 'concurrent' : 'once';
    const delivery: Delivery = {
      tag: txTag(txId),
      txId,
      mode,
      sentAt: performance.now(),
      acknowledged: false,
      recorded: 0,
      seenAt: [],
    };
    // Registered before sending: the notification may arrive before the webhook's answer.
    this.deliveries.set(delivery.tag, delivery);
    const body = addressEventBody({
      address: this.options.wallet,
      txId,
      sequence,
      tokenAddress: this.options.stack.tokenAddress,
      ddexAmount: txId === ddexTx ? DDEX_PER_TRANSFER : null,
    });
    const send = (kind: OpKind) =>
      this.options.metrics.measure(
        kind,
        () => this.options.tatum.deliver(body),
        (answer) =>
          answer.status >= 200 && answer.status < 300 && answer.recorded !== null
            ? null
            : `HTTP ${answer.status}: ${answer.body}`,
      );
    let answers: (DeliveryAnswer | undefined)[];
    if (mode === 'concurrent')
      answers = await Promise.all([send('webhook delivery'), send('webhook repeat')]);
    else if (mode === 'repeated') answers = [await send('webhook delivery'), await send('webhook repeat')];
    else answers = [await send('webhook delivery')];
    const accepted = answers.filter((answer): answer is DeliveryAnswer => answer !== undefined);
    delivery.acknowledged = accepted.length > 0;
    delivery.recorded = accepted.reduce((sum, answer) => sum + (answer.recorded ?? 0), 0);
    if (delivery.acknowledged && delivery.recorded !== 1) {
      this.options.metrics.fail(
        mode === 'once' ? 'webhook delivery' : 'webhook repeat',
        `tx ${delivery.tag} (${mode}): recorded ${delivery.recorded} times over ${accepted.length} accepted copies`,
      );
    }
  }

  private requireId(): string {
    if (this.id === null) throw new Error('the user has not signed up');
    return this.id;
  }
}
