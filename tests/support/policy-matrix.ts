import { randomUUID } from 'node:crypto';
import { StorageApiError } from '@supabase/supabase-js';
import { walletEventsUrl } from '../../supabase/functions/watch-wallets/handler.ts';
import type { ProbesFor } from './policy-table.ts';
import { IMAGES } from './stack/avatar-images.ts';
import {
  anonClient,
  serviceClient,
  signedInUser,
  type Client,
  type StackInfo,
  type TestUser,
} from './stack/users.ts';
import { setWalletAsServer } from './stack/wallets.ts';

// What each cell of the policy matrix (tests/support/policy-table.ts) does on
// the local stack, through supabase-js: make the owner's row or object it acts
// on, make the call as some actor, and read the target back with the service
// role (or, for the public avatars bucket, through its public URL) so a cell
// is judged on the state the call left behind, not only on its answer.

/** Who makes a cell's call: a supabase-js client, and the bearer token raw requests send. */
export type Session = { client: Client; accessToken: string | null };

/** The owner's row or object a cell acts on; `value` is what the call tries to write. */
export type Target = { owner: TestUser; key: string; value: string };

export type Answer = {
  error: { status: number | null; message: string } | null;
  /** Rows (or objects) the call returned or touched that belong to the target. */
  rows: number;
};

export type Probe = {
  arrange(): Promise<Target>;
  act(session: Session, target: Target): Promise<Answer>;
  /** The target as the server holds it. */
  read(target: Target): Promise<unknown>;
  /** Whether the call did what it asked, judged on the state after it (and its answer, for reads). */
  applied(target: Target, after: unknown, answer: Answer): boolean;
};

type PostgrestAnswer = {
  error: { message: string; code?: string } | null;
  data: unknown;
  status: number;
};

function fromPostgrest(result: PostgrestAnswer, isTarget: (row: Record<string, unknown>) => boolean): Answer {
  const rows = Array.isArray(result.data) ? (result.data as Record<string, unknown>[]) : [];
  return {
    error: result.error
      ? { status: result.status, message: `${result.error.code ?? ''} ${result.error.message}` }
      : null,
    rows: rows.filter(isTarget).length,
  };
}

function fromStorage(error: unknown, rows: number): Answer {
  if (error === null) return { error: null, rows };
  const status = error instanceof StorageApiError ? error.status : null;
  return { error: { status, message: error instanceof Error ? error.message : String(error) }, rows };
}

const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
/** An address no one holds yet: a wallet has one owner. */
const freshAddress = () => `0x${randomUUID().replaceAll('-', '')}${randomUUID().slice(0, 8)}`;
const image = (bytes: Uint8Array<ArrayBuffer>, type: string) => new Blob([bytes], { type });

export type PolicyUsers = { owner: TestUser; other: TestUser };

export function createProbes(stack: StackInfo, users: PolicyUsers) {
  const service = serviceClient(stack);
  const { owner } = users;

  const profileOf = async (id: string) => {
    const { data, error } = await service.from('profiles').select('*').eq('id', id).maybeSingle();
    if (error) throw new Error(`reading profile ${id} failed: ${error.message}`);
    return data;
  };
  const isProfile = (target: Target) => (row: Record<string, unknown>) => row['id'] === target.key;
  /** A user of its own with a saved profile, for cells that would spoil the shared owner's. */
  const freshOwner = async (): Promise<TestUser> => {
    const user = await signedInUser(stack, 'matrix-owner');
    const { error } = await user.client.from('profiles').upsert({ id: user.id, username: 'fresh' });
    if (error) throw new Error(`creating a profile failed: ${error.message}`);
    return user;
  };

  const notificationOf = async (id: string) => {
    const { data, error } = await service.from('user_notifications').select('*').eq('id', id).maybeSingle();
    if (error) throw new Error(`reading notification ${id} failed: ${error.message}`);
    return data;
  };
  const freshNotification = async (): Promise<Target> => {
    const { data, error } = await service
      .from('user_notifications')
      .insert({ user_id: owner.id, title: 'Matrix notice', message: 'Left for the matrix' })
      .select()
      .single();
    if (error) throw new Error(`inserting a notification failed: ${error.message}`);
    return { owner, key: data.id, value: unique('Forged') };
  };
  const isRow = (target: Target) => (row: Record<string, unknown>) => row['id'] === target.key;

  const transactionOf = async (id: string) => {
    const { data, error } = await service.from('transactions').select('*').eq('id', id).maybeSingle();
    if (error) throw new Error(`reading transaction ${id} failed: ${error.message}`);
    return data;
  };
  const transactionsWithHash = async (hash: string) => {
    // Not .eq: on the local stack's REST layer an eq filter on a 0x… hash finds no row even when
    // one holds it; a hash has no ilike wildcard, so ilike matches it exactly (in any letter case).
    const { data, error } = await service.from('transactions').select('*').ilike('tx_hash', hash);
    if (error) throw new Error(`reading transactions failed: ${error.message}`);
    return data;
  };
  const freshTransaction = async (): Promise<Target> => {
    const { data, error } = await service
      .from('transactions')
      .insert({
        user_id: owner.id,
        type: 'token_received',
        status: 'confirmed',
        amount: '1.5',
        token_symbol: 'DDEX',
        tx_hash: `0x${randomUUID().replaceAll('-', '')}`,
      })
      .select()
      .single();
    if (error) throw new Error(`inserting a transaction failed: ${error.message}`);
    return { owner, key: data.id, value: '1000' };
  };

  const nonceOf = async (nonce: string) => {
    const { data, error } = await service
      .from('wallet_link_nonces')
      .select('*')
      .eq('nonce', nonce)
      .maybeSingle();
    if (error) throw new Error(`reading nonce ${nonce} failed: ${error.message}`);
    return data;
  };
  const inTenMinutes = () => new Date(Date.now() + 10 * 60_000).toISOString();
  /** A nonce link-wallet issued to the owner, as the service role writes it. */
  const issuedNonce = async (): Promise<Target> => {
    const nonce = unique('Matrix').replace('-', '');
    const { error } = await service
      .from('wallet_link_nonces')
      .insert({ nonce, user_id: owner.id, address: freshAddress(), expires_at: inTenMinutes() });
    if (error) throw new Error(`issuing a nonce failed: ${error.message}`);
    return { owner, key: nonce, value: '' };
  };
  const isNonce = (target: Target) => (row: Record<string, unknown>) => row['nonce'] === target.key;

  const subscriptionOf = async (id: string) => {
    const { data, error } = await service.from('tatum_subscriptions').select('*').eq('id', id).maybeSingle();
    if (error) throw new Error(`reading subscription ${id} failed: ${error.message}`);
    return data;
  };
  /** A subscription tatum-webhooks made for the owner's wallet, as the service role records it. */
  const subscribed = async (): Promise<Target> => {
    const id = unique('matrix-sub');
    const { error } = await service.from('tatum_subscriptions').insert({
      id,
      user_id: owner.id,
      address: freshAddress(),
      url: 'https://owner.example.test/hook',
      chain: 'ETH',
    });
    if (error) throw new Error(`recording a subscription failed: ${error.message}`);
    return { owner, key: id, value: 'https://elsewhere.example.test/hook' };
  };

  /** The counts of one rate-limit bucket, every window. */
  const countsOf = async (bucket: string) => {
    const { data, error } = await service.from('function_rate_limits').select('*').eq('bucket', bucket);
    if (error) throw new Error(`reading bucket ${bucket} failed: ${error.message}`);
    return data;
  };
  /** The start of the current one-minute window, as take_rate_limit aligns it. */
  const currentWindow = () => new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
  /** The bucket native-balance counts the owner's requests in: one of their own per cell. */
  const ownersBucket = () => `native-balance:user:${owner.id}:${randomUUID().slice(0, 8)}`;
  /** One request of the owner's counted in the current window, as native-balance counts it. */
  const counted = async (): Promise<Target> => {
    const bucket = ownersBucket();
    const { error } = await service
      .from('function_rate_limits')
      .insert({ bucket, window_start: currentWindow(), requests: 1 });
    if (error) throw new Error(`counting a request failed: ${error.message}`);
    return { owner, key: bucket, value: '-1000000' };
  };
  const isBucket = (target: Target) => (row: Record<string, unknown>) => row['bucket'] === target.key;
  /** The bucket's requests over all its windows: a call may fall in the next minute. */
  const requestsIn = (after: unknown) =>
    (after as { requests: number }[]).reduce((sum, { requests }) => sum + requests, 0);

  const botOf = async (id: string) => {
    const { data, error } = await service.from('bots').select('*').eq('id', id).maybeSingle();
    if (error) throw new Error(`reading bot ${id} failed: ${error.message}`);
    return data;
  };
  /** The owner's bot, watching for a price no swap reaches (not even another file's test swaps). */
  const createBot = async () => {
    const { data, error } = await service
      .from('bots')
      .insert({ user_id: owner.id, name: 'Matrix bot', kind: 'price_above', level: 1_000_000 })
      .select()
      .single();
    if (error) throw new Error(`creating a bot failed: ${error.message}`);
    return data.id;
  };
  const freshBot = async (): Promise<Target> => ({ owner, key: await createBot(), value: unique('Renamed') });
  /**
   * The one bot every bot_runs cell records its runs for: the owner's bots count towards the cap
   * of 25 and the service role cannot delete them here (docs/local-stack.md), so the cells do not
   * make one each.
   */
  let runsBot: Promise<string> | undefined;
  const botForRuns = () => (runsBot ??= createBot());

  /** A full 32-byte hash, as bot_runs and market_prices check. */
  const swapHash = () => `0x${randomUUID().replaceAll('-', '')}${randomUUID().replaceAll('-', '')}`;
  const runOf = async (id: string) => {
    const { data, error } = await service.from('bot_runs').select('*').eq('id', id).maybeSingle();
    if (error) throw new Error(`reading run ${id} failed: ${error.message}`);
    return data;
  };
  /** Runs by hash: ilike, not eq, as for transactions above. */
  const runsWithHash = async (hash: string) => {
    const { data, error } = await service.from('bot_runs').select('*').ilike('tx_hash', hash);
    if (error) throw new Error(`reading runs failed: ${error.message}`);
    return data;
  };
  const runRow = (botId: string, hash: string) => ({
    bot_id: botId,
    user_id: owner.id,
    tx_hash: hash,
    log_index: 0,
    block_number: 1,
    block_time: new Date().toISOString(),
    price_before: 999_999,
    price_after: 1_000_001,
    ddex_amount: 1,
    side: 'buy',
  });
  /** A firing of the owner's bot, as evaluate_market_swap records it. */
  const freshRun = async (): Promise<Target> => {
    const { data, error } = await service
      .from('bot_runs')
      .insert(runRow(await botForRuns(), swapHash()))
      .select()
      .single();
    if (error) throw new Error(`recording a run failed: ${error.message}`);
    return { owner, key: data.id, value: '0.5' };
  };
  /** The matrix's own market, apart from any other's price history. */
  const MATRIX_PAIR = `0x${'4d'.repeat(20)}`;
  const priceRow = (hash: string) => ({
    pair: MATRIX_PAIR,
    tx_hash: hash,
    log_index: 0,
    block_number: 1,
    block_time: new Date().toISOString(),
    price_before: 0.0002,
    price_after: 0.00021,
    ddex_amount: 10,
    side: 'buy',
  });
  const pricesWithHash = async (hash: string) => {
    const { data, error } = await service.from('market_prices').select('*').ilike('tx_hash', hash);
    if (error) throw new Error(`reading prices failed: ${error.message}`);
    return data;
  };
  const recordedPrice = async (): Promise<Target> => {
    const hash = swapHash();
    const { error } = await service.from('market_prices').insert(priceRow(hash));
    if (error) throw new Error(`recording a price failed: ${error.message}`);
    return { owner, key: hash, value: '' };
  };
  const isHash = (target: Target) => (row: Record<string, unknown>) => row['tx_hash'] === target.key;

  // The stack drains the wallet-watch queue and reconciles the watches as they change, so a cell's
  // target must be left alone by it: a watch made for this stack's URL, and a job not due yet.
  const watchUrl = walletEventsUrl(stack.url);
  /** Not before then: no drain claims a job that is not due. */
  const LATER = '2100-01-01T00:00:00.000Z';
  const watchOf = async (address: string) => {
    // ilike, not eq, as for transactions above: an address is 0x… too.
    const { data, error } = await service.from('wallet_watches').select('*').ilike('address', address);
    if (error) throw new Error(`reading the watch of ${address} failed: ${error.message}`);
    return data[0] ?? null;
  };
  /** The server's watch of the owner's proven wallet, as watch-wallets records it. */
  const watched = async (): Promise<Target> => {
    const address = freshAddress();
    const { error } = await service.from('wallet_watches').insert({
      address,
      user_id: owner.id,
      url: watchUrl,
      subscription_id: unique('matrix-watch'),
      state: 'active',
    });
    if (error) throw new Error(`recording a watch failed: ${error.message}`);
    return { owner, key: address, value: 'https://elsewhere.example.test/hook' };
  };
  const isWatch = (target: Target) => (row: Record<string, unknown>) => row['address'] === target.key;
  const jobOf = async (id: string) => {
    const { data, error } = await service.from('wallet_watch_jobs').select('*').eq('id', Number(id));
    if (error) throw new Error(`reading job ${id} failed: ${error.message}`);
    return data[0] ?? null;
  };
  const jobsFor = async (address: string) => {
    const { data, error } = await service.from('wallet_watch_jobs').select('*').ilike('address', address);
    if (error) throw new Error(`reading the jobs of ${address} failed: ${error.message}`);
    return data;
  };
  /** A change of the owner's wallet waiting for its turn, as the profile's trigger queues it. */
  const queued = async (): Promise<Target> => {
    const { data, error } = await service
      .from('wallet_watch_jobs')
      .insert({ address: freshAddress(), user_id: owner.id, next_attempt_at: LATER })
      .select()
      .single();
    if (error) throw new Error(`queueing a job failed: ${error.message}`);
    return { owner, key: String(data.id), value: '2200-01-01T00:00:00.000Z' };
  };
  const isJob = (target: Target) => (row: Record<string, unknown>) => String(row['id']) === target.key;

  const avatars = (client: Client) => client.storage.from('avatars');
  const publicUrl = (name: string) => avatars(anonClient(stack)).getPublicUrl(name).data.publicUrl;
  /** The object as anyone sees it through the public bucket: status, type and bytes. */
  const objectOf = async (name: string) => {
    const response = await fetch(publicUrl(name));
    const bytes = Buffer.from(await response.arrayBuffer());
    return response.ok
      ? {
          status: response.status,
          type: response.headers.get('content-type'),
          bytes: bytes.toString('base64'),
        }
      : { status: response.status };
  };
  const avatarName = () => `${owner.id}-${Date.now()}-${randomUUID().slice(0, 8)}.png`;
  const uploadedAvatar = async (): Promise<Target> => {
    const key = avatarName();
    const { error } = await avatars(owner.client).upload(key, image(IMAGES.png, 'image/png'), {
      cacheControl: '3600',
      upsert: true,
    });
    if (error) throw new Error(`uploading an avatar failed: ${error.message}`);
    return { owner, key, value: 'gif' };
  };

  return {
    profiles: {
      select: {
        arrange: async () => ({ owner, key: owner.id, value: '' }),
        act: async ({ client }, target) =>
          fromPostgrest(await client.from('profiles').select('*').eq('id', target.key), isProfile(target)),
        read: (target) => profileOf(target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A user who has no profile yet: the owner creates it on first save.
        arrange: async () => {
          const fresh = await signedInUser(stack, 'matrix-new');
          return { owner: fresh, key: fresh.id, value: unique('created') };
        },
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('profiles').insert({ id: target.key, username: target.value }).select(),
            isProfile(target),
          ),
        read: (target) => profileOf(target.key),
        applied: (target, after) => (after as { username?: string } | null)?.username === target.value,
      },
      upsert: {
        // The portal's save (docs/product.md#calls): upsert on conflict id, returning the row.
        arrange: async () => ({ owner, key: owner.id, value: unique('upserted') }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('profiles')
              .upsert({ id: target.key, username: target.value }, { onConflict: 'id' })
              .select(),
            isProfile(target),
          ),
        read: (target) => profileOf(target.key),
        applied: (target, after) => (after as { username?: string } | null)?.username === target.value,
      },
      update: {
        arrange: async () => ({ owner, key: owner.id, value: unique('updated') }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('profiles').update({ username: target.value }).eq('id', target.key).select(),
            isProfile(target),
          ),
        read: (target) => profileOf(target.key),
        applied: (target, after) => (after as { username?: string } | null)?.username === target.value,
      },
      'set wallet': {
        // Only a proof links a wallet (tests/contract/link-wallet.test.ts).
        arrange: async () => ({ owner, key: owner.id, value: freshAddress() }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('profiles')
              .update({ wallet_address: target.value })
              .eq('id', target.key)
              .select(),
            isProfile(target),
          ),
        read: (target) => profileOf(target.key),
        applied: (target, after) =>
          (after as { wallet_address?: string } | null)?.wallet_address === target.value,
      },
      'unlink wallet': {
        // The owner's save with the wallet cleared: an upsert of wallet_address null.
        arrange: async () => {
          const fresh = await freshOwner();
          await setWalletAsServer(service, fresh.id, freshAddress(), true);
          return { owner: fresh, key: fresh.id, value: '' };
        },
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('profiles')
              .upsert({ id: target.key, wallet_address: null }, { onConflict: 'id' })
              .select(),
            isProfile(target),
          ),
        read: (target) => profileOf(target.key),
        applied: (_target, after) => {
          const row = after as { wallet_address?: string | null; wallet_verified_at?: string | null } | null;
          return row?.wallet_address === null && row.wallet_verified_at === null;
        },
      },
      delete: {
        arrange: async () => {
          const fresh = await freshOwner();
          return { owner: fresh, key: fresh.id, value: '' };
        },
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('profiles').delete().eq('id', target.key).select(),
            isProfile(target),
          ),
        read: (target) => profileOf(target.key),
        applied: (_target, after) => after === null,
      },
    },
    user_notifications: {
      select: {
        arrange: freshNotification,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('user_notifications').select('*').eq('user_id', target.owner.id),
            isRow(target),
          ),
        read: (target) => notificationOf(target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        arrange: async () => ({ owner, key: owner.id, value: unique('Self-made') }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('user_notifications')
              .insert({ user_id: target.key, title: target.value, message: 'Not from the server' })
              .select(),
            (row) => row['title'] === target.value,
          ),
        read: async (target) => {
          const { data, error } = await service
            .from('user_notifications')
            .select('*')
            .eq('user_id', target.key)
            .eq('title', target.value);
          if (error) throw new Error(`reading notifications failed: ${error.message}`);
          return data;
        },
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      'update read state': {
        // The portal's "mark read" (docs/product.md#calls): is_read and read_at by id.
        arrange: freshNotification,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('user_notifications')
              .update({ is_read: true, read_at: new Date().toISOString() })
              .eq('id', target.key)
              .select(),
            isRow(target),
          ),
        read: (target) => notificationOf(target.key),
        applied: (_target, after) => (after as { is_read?: boolean } | null)?.is_read === true,
      },
      'update title': {
        arrange: freshNotification,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('user_notifications')
              .update({ title: target.value })
              .eq('id', target.key)
              .select(),
            isRow(target),
          ),
        read: (target) => notificationOf(target.key),
        applied: (target, after) => (after as { title?: string } | null)?.title === target.value,
      },
      delete: {
        arrange: freshNotification,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('user_notifications').delete().eq('id', target.key).select(),
            isRow(target),
          ),
        read: (target) => notificationOf(target.key),
        applied: (_target, after) => after === null,
      },
    },
    transactions: {
      select: {
        arrange: freshTransaction,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('transactions').select('*').eq('user_id', target.owner.id),
            isRow(target),
          ),
        read: (target) => transactionOf(target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        arrange: async () => ({ owner, key: owner.id, value: `0x${randomUUID().replaceAll('-', '')}` }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('transactions')
              .insert({
                user_id: target.key,
                type: 'token_received',
                status: 'confirmed',
                tx_hash: target.value,
              })
              .select(),
            (row) => row['tx_hash'] === target.value,
          ),
        read: (target) => transactionsWithHash(target.value),
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      'record_transfer rpc': {
        // The function the server functions record a transfer and its notice with.
        arrange: async () => ({ owner, key: owner.id, value: `0x${randomUUID().replaceAll('-', '')}` }),
        act: async ({ client }, target) => {
          const result = await client.rpc('record_transfer', {
            p_user_id: target.key,
            p_tx_hash: target.value,
            p_type: 'token_received',
            p_status: 'confirmed',
            p_amount: '5',
            p_token_symbol: 'DDEX',
            p_title: 'DDEX Received',
            p_message: 'Not from the server',
          });
          return fromPostgrest({ ...result, data: result.data === true ? [{}] : [] }, () => true);
        },
        read: (target) => transactionsWithHash(target.value),
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      update: {
        arrange: freshTransaction,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('transactions').update({ amount: target.value }).eq('id', target.key).select(),
            isRow(target),
          ),
        read: (target) => transactionOf(target.key),
        applied: (target, after) => (after as { amount?: string } | null)?.amount === target.value,
      },
      delete: {
        arrange: freshTransaction,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('transactions').delete().eq('id', target.key).select(),
            isRow(target),
          ),
        read: (target) => transactionOf(target.key),
        applied: (_target, after) => after === null,
      },
    },
    wallet_link_nonces: {
      select: {
        arrange: issuedNonce,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('wallet_link_nonces').select('*').eq('nonce', target.key),
            isNonce(target),
          ),
        read: (target) => nonceOf(target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A nonce of one's own making, which link-wallet would then accept.
        arrange: async () => ({ owner, key: unique('Forged').replace('-', ''), value: freshAddress() }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('wallet_link_nonces')
              .insert({
                nonce: target.key,
                user_id: target.owner.id,
                address: target.value,
                expires_at: inTenMinutes(),
              })
              .select(),
            isNonce(target),
          ),
        read: (target) => nonceOf(target.key),
        applied: (_target, after) => after !== null,
      },
      update: {
        // Handing a spent nonce back, or one issued to someone else over.
        arrange: issuedNonce,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('wallet_link_nonces')
              .update({ used_at: new Date().toISOString() })
              .eq('nonce', target.key)
              .select(),
            isNonce(target),
          ),
        read: (target) => nonceOf(target.key),
        applied: (_target, after) => (after as { used_at?: string | null } | null)?.used_at != null,
      },
      delete: {
        arrange: issuedNonce,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('wallet_link_nonces').delete().eq('nonce', target.key).select(),
            isNonce(target),
          ),
        read: (target) => nonceOf(target.key),
        applied: (_target, after) => after === null,
      },
    },
    tatum_subscriptions: {
      select: {
        // List Hooks reads the owner's subscriptions through tatum-webhooks, but the table is
        // theirs to read as well.
        arrange: subscribed,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('tatum_subscriptions').select('*').eq('user_id', target.owner.id),
            isRow(target),
          ),
        read: (target) => subscriptionOf(target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A subscription Tatum never made, which List Hooks would then show as the owner's.
        arrange: async () => ({ owner, key: unique('forged-sub'), value: freshAddress() }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('tatum_subscriptions')
              .insert({
                id: target.key,
                user_id: target.owner.id,
                address: target.value,
                url: 'https://elsewhere.example.test/hook',
                chain: 'ETH',
              })
              .select(),
            isRow(target),
          ),
        read: (target) => subscriptionOf(target.key),
        applied: (_target, after) => after !== null,
      },
      update: {
        // Pointing the record at another URL than the one Tatum calls.
        arrange: subscribed,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('tatum_subscriptions')
              .update({ url: target.value })
              .eq('id', target.key)
              .select(),
            isRow(target),
          ),
        read: (target) => subscriptionOf(target.key),
        applied: (target, after) => (after as { url?: string } | null)?.url === target.value,
      },
      delete: {
        // Forgetting a subscription Tatum still holds: only Delete First Hook, through the
        // function, removes both.
        arrange: subscribed,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('tatum_subscriptions').delete().eq('id', target.key).select(),
            isRow(target),
          ),
        read: (target) => subscriptionOf(target.key),
        applied: (_target, after) => after === null,
      },
      'forget_tatum_subscription rpc': {
        // The function tatum-webhooks forgets a subscription with once Tatum has dropped it.
        arrange: subscribed,
        act: async ({ client }, target) => {
          const result = await client.rpc('forget_tatum_subscription', {
            p_user_id: target.owner.id,
            p_id: target.key,
          });
          return fromPostgrest({ ...result, data: result.data === true ? [{}] : [] }, () => true);
        },
        read: (target) => subscriptionOf(target.key),
        applied: (_target, after) => after === null,
      },
    },
    function_rate_limits: {
      select: {
        arrange: counted,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('function_rate_limits').select('*').eq('bucket', target.key),
            isBucket(target),
          ),
        read: (target) => countsOf(target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A window of one's own making, its count set far below zero to buy requests ahead.
        arrange: async () => ({ owner, key: ownersBucket(), value: '-1000000' }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('function_rate_limits')
              .insert({ bucket: target.key, window_start: currentWindow(), requests: Number(target.value) })
              .select(),
            isBucket(target),
          ),
        read: (target) => countsOf(target.key),
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      update: {
        // Winding one's own count back, or someone else's up to lock them out.
        arrange: counted,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('function_rate_limits')
              .update({ requests: Number(target.value) })
              .eq('bucket', target.key)
              .select(),
            isBucket(target),
          ),
        read: (target) => countsOf(target.key),
        applied: (target, after) => requestsIn(after) === Number(target.value),
      },
      delete: {
        arrange: counted,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('function_rate_limits').delete().eq('bucket', target.key).select(),
            isBucket(target),
          ),
        read: (target) => countsOf(target.key),
        applied: (_target, after) => Array.isArray(after) && after.length === 0,
      },
      'take_rate_limit rpc': {
        // The count native-balance takes before it spends the Tatum key's quota.
        arrange: counted,
        act: async ({ client }, target) => {
          const result = await client.rpc('take_rate_limit', {
            p_bucket: target.key,
            p_limit: 1_000_000,
            p_window_seconds: 60,
          });
          return fromPostgrest({ ...result, data: typeof result.data === 'number' ? [{}] : [] }, () => true);
        },
        read: (target) => countsOf(target.key),
        applied: (_target, after) => requestsIn(after) === 2,
      },
    },
    bots: {
      select: {
        arrange: freshBot,
        act: async ({ client }, target) =>
          fromPostgrest(await client.from('bots').select('*').eq('user_id', target.owner.id), isRow(target)),
        read: (target) => botOf(target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // The portal's create: the owner's own bot, named and with one rule.
        arrange: async () => ({ owner, key: owner.id, value: unique('Created') }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('bots')
              .insert({ user_id: target.key, name: target.value, kind: 'price_above', level: 1_000_000 })
              .select(),
            (row) => row['name'] === target.value,
          ),
        read: async (target) => {
          const { data, error } = await service
            .from('bots')
            .select('*')
            .eq('user_id', target.key)
            .eq('name', target.value);
          if (error) throw new Error(`reading bots failed: ${error.message}`);
          return data;
        },
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      update: {
        arrange: freshBot,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('bots').update({ name: target.value }).eq('id', target.key).select(),
            isRow(target),
          ),
        read: (target) => botOf(target.key),
        applied: (target, after) => (after as { name?: string } | null)?.name === target.value,
      },
      'update server fields': {
        // Making the bot look as if it had just fired, which would keep it cooling down.
        arrange: async () => ({ ...(await freshBot()), value: '2030-01-01T00:00:00.000Z' }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('bots').update({ last_fired_at: target.value }).eq('id', target.key).select(),
            isRow(target),
          ),
        read: (target) => botOf(target.key),
        applied: (target, after) => {
          const firedAt = (after as { last_fired_at?: string | null } | null)?.last_fired_at;
          return firedAt != null && Date.parse(firedAt) === Date.parse(target.value);
        },
      },
      delete: {
        arrange: freshBot,
        act: async ({ client }, target) =>
          fromPostgrest(await client.from('bots').delete().eq('id', target.key).select(), isRow(target)),
        read: (target) => botOf(target.key),
        applied: (_target, after) => after === null,
      },
    },
    bot_runs: {
      select: {
        arrange: freshRun,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('bot_runs').select('*').eq('user_id', target.owner.id),
            isRow(target),
          ),
        read: (target) => runOf(target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A firing the market never made, which the page would show as the bot's.
        arrange: async () => ({ owner, key: await botForRuns(), value: swapHash() }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('bot_runs').insert(runRow(target.key, target.value)).select(),
            (row) => row['tx_hash'] === target.value,
          ),
        read: (target) => runsWithHash(target.value),
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      update: {
        arrange: freshRun,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('bot_runs')
              .update({ price_after: Number(target.value) })
              .eq('id', target.key)
              .select(),
            isRow(target),
          ),
        read: (target) => runOf(target.key),
        applied: (target, after) =>
          Number((after as { price_after?: unknown } | null)?.price_after) === Number(target.value),
      },
      delete: {
        arrange: freshRun,
        act: async ({ client }, target) =>
          fromPostgrest(await client.from('bot_runs').delete().eq('id', target.key).select(), isRow(target)),
        read: (target) => runOf(target.key),
        applied: (_target, after) => after === null,
      },
      'evaluate_market_swap rpc': {
        // The function market-bots evaluates a swap with: a swap of one's own making would fire
        // the owner's bot and send its notification.
        arrange: async () => ({ owner, key: await botForRuns(), value: swapHash() }),
        act: async ({ client }, target) => {
          const result = await client.rpc('evaluate_market_swap', {
            p_pair: MATRIX_PAIR,
            p_tx_hash: target.value,
            p_log_index: 0,
            p_block_number: 1,
            p_block_time: new Date().toISOString(),
            p_price_before: 999_999,
            p_price_after: 1_000_001,
            p_ddex_amount: 1,
            p_side: 'buy',
            p_price_before_text: '999999',
            p_price_after_text: '1000001',
            p_amount_text: '1',
          });
          return fromPostgrest(
            { ...result, data: (result.data?.[0]?.fired ?? 0) > 0 ? [{}] : [] },
            () => true,
          );
        },
        read: (target) => runsWithHash(target.value),
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
    },
    market_prices: {
      select: {
        arrange: recordedPrice,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('market_prices').select('*').ilike('tx_hash', target.key),
            isHash(target),
          ),
        read: (target) => pricesWithHash(target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A price the market never had, which a move bot would then measure against.
        arrange: async () => ({ owner, key: swapHash(), value: '' }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('market_prices').insert(priceRow(target.key)).select(),
            isHash(target),
          ),
        read: (target) => pricesWithHash(target.key),
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
    },
    wallet_watches: {
      select: {
        arrange: watched,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('wallet_watches').select('*').ilike('address', target.key),
            isWatch(target),
          ),
        read: (target) => watchOf(target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A watch of one's own making, which the server would take for its subscription.
        arrange: async () => ({ owner, key: freshAddress(), value: 'https://elsewhere.example.test/hook' }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('wallet_watches')
              .insert({ address: target.key, user_id: target.owner.id, url: target.value })
              .select(),
            isWatch(target),
          ),
        read: (target) => watchOf(target.key),
        applied: (_target, after) => after !== null,
      },
      update: {
        // Moving the server's subscription somewhere else.
        arrange: watched,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('wallet_watches')
              .update({ url: target.value })
              .ilike('address', target.key)
              .select(),
            isWatch(target),
          ),
        read: (target) => watchOf(target.key),
        applied: (target, after) => (after as { url?: string } | null)?.url === target.value,
      },
      delete: {
        arrange: watched,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('wallet_watches').delete().ilike('address', target.key).select(),
            isWatch(target),
          ),
        read: (target) => watchOf(target.key),
        applied: (_target, after) => after === null,
      },
      'forget_wallet_watch rpc': {
        // The function watch-wallets forgets a watch with once Tatum has dropped it.
        arrange: watched,
        act: async ({ client }, target) => {
          const result = await client.rpc('forget_wallet_watch', { p_address: target.key });
          return fromPostgrest({ ...result, data: result.data === true ? [{}] : [] }, () => true);
        },
        read: (target) => watchOf(target.key),
        applied: (_target, after) => after === null,
      },
    },
    wallet_watch_jobs: {
      select: {
        arrange: queued,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('wallet_watch_jobs').select('*').eq('id', Number(target.key)),
            isJob(target),
          ),
        read: (target) => jobOf(target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A change nobody made, for the server to act on.
        arrange: async () => ({ owner, key: freshAddress(), value: '' }),
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('wallet_watch_jobs')
              .insert({ address: target.key, user_id: target.owner.id, next_attempt_at: LATER })
              .select(),
            (row) => row['address'] === target.key,
          ),
        read: (target) => jobsFor(target.key),
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      update: {
        // Putting a change off, so the server would not act on it.
        arrange: queued,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client
              .from('wallet_watch_jobs')
              .update({ next_attempt_at: target.value })
              .eq('id', Number(target.key))
              .select(),
            isJob(target),
          ),
        read: (target) => jobOf(target.key),
        applied: (target, after) => {
          const due = (after as { next_attempt_at?: string } | null)?.next_attempt_at;
          return due != null && Date.parse(due) === Date.parse(target.value);
        },
      },
      delete: {
        arrange: queued,
        act: async ({ client }, target) =>
          fromPostgrest(
            await client.from('wallet_watch_jobs').delete().eq('id', Number(target.key)).select(),
            isJob(target),
          ),
        read: (target) => jobOf(target.key),
        applied: (_target, after) => after === null,
      },
      'claim_wallet_watches rpc': {
        // What a drain starts with: a claim holds the queue's addresses from every other drain.
        arrange: queued,
        act: async ({ client }) => {
          const result = await client.rpc('claim_wallet_watches', {
            p_url: watchUrl,
            p_limit: 10,
            p_lease_seconds: 60,
          });
          return fromPostgrest({ ...result, data: result.error ? [] : [{}] }, () => true);
        },
        read: (target) => jobOf(target.key),
        applied: (_target, _after, answer) => answer.error === null,
      },
    },
    avatars: {
      upload: {
        // The portal's upload (docs/product.md#avatars-bucket): cache control 3600 and upsert,
        // named "<user id>-<time>.<ext>".
        arrange: async () => ({ owner, key: avatarName(), value: 'png' }),
        act: async ({ client }, target) => {
          const { data, error } = await avatars(client).upload(target.key, image(IMAGES.png, 'image/png'), {
            cacheControl: '3600',
            upsert: true,
          });
          return fromStorage(error, data?.path === target.key ? 1 : 0);
        },
        read: (target) => objectOf(target.key),
        applied: (_target, after) =>
          (after as { bytes?: string }).bytes === Buffer.from(IMAGES.png).toString('base64'),
      },
      'overwrite (upsert)': {
        arrange: uploadedAvatar,
        act: async ({ client }, target) => {
          const { data, error } = await avatars(client).upload(target.key, image(IMAGES.gif, 'image/gif'), {
            cacheControl: '3600',
            upsert: true,
          });
          return fromStorage(error, data?.path === target.key ? 1 : 0);
        },
        read: (target) => objectOf(target.key),
        applied: (_target, after) =>
          (after as { bytes?: string }).bytes === Buffer.from(IMAGES.gif).toString('base64'),
      },
      'read (public URL)': {
        arrange: uploadedAvatar,
        act: async ({ accessToken }, target) => {
          const response = await fetch(publicUrl(target.key), {
            headers: {
              apikey: stack.anonKey,
              ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
            },
          });
          const bytes = Buffer.from(await response.arrayBuffer());
          if (!response.ok)
            return { error: { status: response.status, message: bytes.toString('utf8') }, rows: 0 };
          return { error: null, rows: bytes.equals(Buffer.from(IMAGES.png)) ? 1 : 0 };
        },
        read: (target) => objectOf(target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      list: {
        arrange: uploadedAvatar,
        act: async ({ client }, target) => {
          const { data, error } = await avatars(client).list('', { search: target.key });
          return fromStorage(error, (data ?? []).filter((object) => object.name === target.key).length);
        },
        read: (target) => objectOf(target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      delete: {
        arrange: uploadedAvatar,
        act: async ({ client }, target) => {
          const { data, error } = await avatars(client).remove([target.key]);
          return fromStorage(error, (data ?? []).filter((object) => object.name === target.key).length);
        },
        read: (target) => objectOf(target.key),
        applied: (_target, after) => (after as { status: number }).status === 404,
      },
    },
  } satisfies ProbesFor<Probe>;
}

export type Probes = ReturnType<typeof createProbes>;
