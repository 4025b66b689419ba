import { randomUUID } from 'node:crypto';
import type { ProbesFor } from '../policy-table.ts';
import { answerOf, SERVICE, type Case, type Claims, type Query, type SqlAnswer } from './sql.ts';

// What each cell of the policy matrix (tests/support/policy-table.ts) does at the SQL level: make
// the owner's row or object it acts on as the service role, send the statement the API would send
// for the call as the caller, and read the target back as the superuser. The statements are the
// ones PostgREST builds for supabase-js's calls (a select, insert, upsert, update or delete
// returning the rows; an rpc as a function call) and, for storage, the ones the Storage API runs
// (supabase/storage src/storage/database/pg.ts, 4fa61fb: upsertObject, searchObjects,
// deleteObjects; src/http/routes/object/getPublicObject.ts).

export type User = { id: string; email: string };

/** The owner's row or object a cell acts on; `value` is what the call tries to write. */
export type SqlTarget = { owner: User; key: string; value: string };

export type SqlProbe = {
  /** Makes the target, as the service role. */
  arrange(tx: Case): Promise<SqlTarget>;
  /** The call, as `caller`. */
  act(tx: Case, caller: Claims, target: SqlTarget): Promise<SqlAnswer>;
  /** The target as the database holds it, read by the superuser. */
  read(tx: Case, target: SqlTarget): Promise<unknown>;
  /** Whether the call did what it asked, judged on the state after it (and its answer, for reads). */
  applied(target: SqlTarget, after: unknown, answer: SqlAnswer): boolean;
};

export type MatrixUsers = {
  owner: User;
  other: User;
  /** A user with no profile yet, for the cell that creates one. */
  newcomer: User;
};

type Row = Record<string, unknown>;

const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const txHash = () => `0x${randomUUID().replaceAll('-', '')}`;
/** A full 32-byte hash, as bot_runs and market_prices check. */
const swapHash = () => `0x${randomUUID().replaceAll('-', '')}${randomUUID().replaceAll('-', '')}`;
/** An address no one holds yet: a wallet has one owner. */
const freshAddress = () => `0x${randomUUID().replaceAll('-', '')}${randomUUID().slice(0, 8)}`;
const freshNonce = (label: string) => unique(label).replace('-', '');
const firstRow = async (pending: ReturnType<Query>) => (await pending).rows[0] ?? null;
const field = (row: unknown, name: string) => (row as Row | null)?.[name];

/** An image object's metadata as the Storage API stores it. */
const imageMetadata = (mimetype: string) => ({ mimetype, cacheControl: 'max-age=3600', size: 64 });

export function createSqlProbes(users: MatrixUsers) {
  const { owner, newcomer } = users;
  const byId = (target: SqlTarget) => (row: Row) => row['id'] === target.key;

  const profileOf = (tx: Case, id: string) =>
    firstRow(tx.query('select * from public.profiles where id = $1', [id]));

  const notificationOf = (tx: Case, id: string) =>
    firstRow(tx.query('select * from public.user_notifications where id = $1', [id]));
  const freshNotification = async (tx: Case): Promise<SqlTarget> => {
    const row = await tx.request(SERVICE, (query) =>
      firstRow(
        query(
          `insert into public.user_notifications (user_id, title, message)
           values ($1, 'Matrix notice', 'Left for the matrix') returning id`,
          [owner.id],
        ),
      ),
    );
    return { owner, key: String(field(row, 'id')), value: unique('Forged') };
  };

  const transactionOf = (tx: Case, id: string) =>
    firstRow(tx.query('select * from public.transactions where id = $1', [id]));
  const transactionsWithHash = async (tx: Case, hash: string) =>
    (await tx.query('select * from public.transactions where tx_hash = $1', [hash])).rows;
  const freshTransaction = async (tx: Case): Promise<SqlTarget> => {
    const row = await tx.request(SERVICE, (query) =>
      firstRow(
        query(
          `insert into public.transactions (user_id, type, status, amount, token_symbol, tx_hash)
           values ($1, 'token_received', 'confirmed', '1.5', 'DDEX', $2) returning id`,
          [owner.id, txHash()],
        ),
      ),
    );
    return { owner, key: String(field(row, 'id')), value: '1000' };
  };

  /** The owner with a proven wallet, as link-wallet leaves a profile. */
  const withWallet = async (tx: Case): Promise<SqlTarget> => {
    await tx.request(SERVICE, (query) =>
      query('update public.profiles set wallet_address = $2, wallet_verified_at = now() where id = $1', [
        owner.id,
        freshAddress(),
      ]),
    );
    return { owner, key: owner.id, value: '' };
  };

  const nonceOf = (tx: Case, nonce: string) =>
    firstRow(tx.query('select * from public.wallet_link_nonces where nonce = $1', [nonce]));
  /** A nonce link-wallet issued to the owner, as the service role writes it. */
  const issuedNonce = async (tx: Case): Promise<SqlTarget> => {
    const nonce = freshNonce('Matrix');
    await tx.request(SERVICE, (query) =>
      query(
        `insert into public.wallet_link_nonces (nonce, user_id, address, expires_at)
         values ($1, $2, $3, now() + interval '10 minutes')`,
        [nonce, owner.id, freshAddress()],
      ),
    );
    return { owner, key: nonce, value: '' };
  };
  const byNonce = (target: SqlTarget) => (row: Row) => row['nonce'] === target.key;

  const subscriptionOf = (tx: Case, id: string) =>
    firstRow(tx.query('select * from public.tatum_subscriptions where id = $1', [id]));
  /** A subscription tatum-webhooks made for the owner's wallet, as the service role records it. */
  const subscribed = async (tx: Case): Promise<SqlTarget> => {
    const id = unique('matrix-sub');
    await tx.request(SERVICE, (query) =>
      query(
        `insert into public.tatum_subscriptions (id, user_id, address, url, chain)
         values ($1, $2, $3, 'https://owner.example.test/hook', 'ETH')`,
        [id, owner.id, freshAddress()],
      ),
    );
    return { owner, key: id, value: 'https://elsewhere.example.test/hook' };
  };

  const countsOf = async (tx: Case, bucket: string) =>
    (await tx.query('select * from public.function_rate_limits where bucket = $1', [bucket])).rows;
  /** The bucket native-balance counts the owner's requests in: one of their own per cell. */
  const ownersBucket = () => `native-balance:user:${owner.id}:${randomUUID().slice(0, 8)}`;
  /** The start of the current one-minute window, as take_rate_limit aligns it. */
  const CURRENT_WINDOW = `to_timestamp(floor(extract(epoch from clock_timestamp()) / 60) * 60)`;
  /** One request of the owner's counted in the current window, as native-balance counts it. */
  const counted = async (tx: Case): Promise<SqlTarget> => {
    const bucket = ownersBucket();
    await tx.request(SERVICE, (query) =>
      query(
        `insert into public.function_rate_limits (bucket, window_start, requests)
         values ($1, ${CURRENT_WINDOW}, 1)`,
        [bucket],
      ),
    );
    return { owner, key: bucket, value: '-1000000' };
  };
  const byBucket = (target: SqlTarget) => (row: Row) => row['bucket'] === target.key;
  /** The bucket's requests over all its windows: a call may fall in the next minute. */
  const requestsIn = (after: unknown) =>
    (after as Row[]).reduce((sum, row) => sum + Number(row['requests']), 0);

  const botOf = (tx: Case, id: string) => firstRow(tx.query('select * from public.bots where id = $1', [id]));
  /** The owner's bot, watching for a price no swap reaches. */
  const createBot = async (tx: Case) => {
    const row = await tx.request(SERVICE, (query) =>
      firstRow(
        query(
          `insert into public.bots (user_id, name, kind, level)
           values ($1, 'Matrix bot', 'price_above', 1000000) returning id`,
          [owner.id],
        ),
      ),
    );
    return String(field(row, 'id'));
  };
  const freshBot = async (tx: Case): Promise<SqlTarget> => ({
    owner,
    key: await createBot(tx),
    value: unique('Renamed'),
  });

  const runOf = (tx: Case, id: string) =>
    firstRow(tx.query('select * from public.bot_runs where id = $1', [id]));
  const runsWithHash = async (tx: Case, hash: string) =>
    (await tx.query('select * from public.bot_runs where tx_hash = $1', [hash])).rows;
  /** A firing of the owner's bot, as evaluate_market_swap records it. */
  const freshRun = async (tx: Case): Promise<SqlTarget> => {
    const bot = await createBot(tx);
    const row = await tx.request(SERVICE, (query) =>
      firstRow(
        query(
          `insert into public.bot_runs (bot_id, user_id, tx_hash, log_index, block_number, block_time,
             price_before, price_after, ddex_amount, side)
           values ($1, $2, $3, 0, 1, now(), 999999, 1000001, 1, 'buy') returning id`,
          [bot, owner.id, swapHash()],
        ),
      ),
    );
    return { owner, key: String(field(row, 'id')), value: '0.5' };
  };
  /** The matrix's own market, apart from any other's price history. */
  const MATRIX_PAIR = `0x${'4d'.repeat(20)}`;

  const pricesWithHash = async (tx: Case, hash: string) =>
    (await tx.query('select * from public.market_prices where tx_hash = $1', [hash])).rows;
  const insertPrice = (query: Query, hash: string) =>
    query(
      `insert into public.market_prices (pair, tx_hash, log_index, block_number, block_time, price_before,
         price_after, ddex_amount, side)
       values ($1, $2, 0, 1, now(), 0.0002, 0.00021, 10, 'buy') returning *`,
      [MATRIX_PAIR, hash],
    );
  const recordedPrice = async (tx: Case): Promise<SqlTarget> => {
    const hash = swapHash();
    await tx.request(SERVICE, (query) => insertPrice(query, hash));
    return { owner, key: hash, value: '' };
  };
  const byHash = (target: SqlTarget) => (row: Row) => row['tx_hash'] === target.key;

  const WATCH_URL = 'https://ref.supabase.co/functions/v1/process-payments?source=wallet';
  const watchOf = (tx: Case, address: string) =>
    firstRow(tx.query('select * from public.wallet_watches where address = $1', [address]));
  /** The server's watch of the owner's proven wallet, as watch-wallets records it. */
  const watched = async (tx: Case): Promise<SqlTarget> => {
    const address = freshAddress();
    await tx.request(SERVICE, (query) =>
      query(
        `insert into public.wallet_watches (address, user_id, url, subscription_id, state)
         values ($1, $2, $3, $4, 'active')`,
        [address, owner.id, WATCH_URL, unique('matrix-watch')],
      ),
    );
    return { owner, key: address, value: 'https://elsewhere.example.test/hook' };
  };
  const byAddress = (target: SqlTarget) => (row: Row) => row['address'] === target.key;
  const jobOf = (tx: Case, id: string) =>
    firstRow(tx.query('select * from public.wallet_watch_jobs where id = $1', [id]));
  const jobsFor = async (tx: Case, address: string) =>
    (await tx.query('select * from public.wallet_watch_jobs where address = $1', [address])).rows;
  /** A change of the owner's wallet waiting for its turn, as the profile's trigger queues it. */
  const queued = async (tx: Case): Promise<SqlTarget> => {
    const row = await tx.request(SERVICE, (query) =>
      firstRow(
        query(
          `insert into public.wallet_watch_jobs (address, user_id, next_attempt_at)
           values ($1, $2, now() + interval '1 day') returning id`,
          [freshAddress(), owner.id],
        ),
      ),
    );
    return { owner, key: String(field(row, 'id')), value: '2200-01-01T00:00:00.000Z' };
  };
  const byJob = (target: SqlTarget) => (row: Row) => String(row['id']) === target.key;

  // An upload with upsert, as the Storage API writes it: the uploader is the owner (none for anon).
  const upsertObject = (query: Query, caller: Claims, name: string, mimetype: string) =>
    query(
      `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, version)
       values ('avatars', $1, $2::uuid, $2, $3, $4)
       on conflict (name, bucket_id) do update set metadata = excluded.metadata,
         version = excluded.version, owner = excluded.owner, owner_id = excluded.owner_id
       returning *`,
      [name, caller.sub ?? null, imageMetadata(mimetype), randomUUID()],
    );
  const objectOf = (tx: Case, name: string) =>
    firstRow(
      tx.query(
        `select name, owner, owner_id, metadata, version from storage.objects
         where bucket_id = 'avatars' and name = $1`,
        [name],
      ),
    );
  const avatarName = (user: User) => `${user.id}-${Date.now()}-${randomUUID().slice(0, 8)}.png`;
  const uploadedAvatar = async (tx: Case): Promise<SqlTarget> => {
    const key = avatarName(owner);
    await tx.request(SERVICE, (query) =>
      upsertObject(query, { ...SERVICE, sub: owner.id }, key, 'image/png'),
    );
    return { owner, key, value: 'image/gif' };
  };
  const byName = (target: SqlTarget) => (row: Row) => row['name'] === target.key;
  const hasType = (after: unknown, mimetype: string) =>
    field(field(after, 'metadata'), 'mimetype') === mimetype;

  return {
    profiles: {
      select: {
        arrange: async () => ({ owner, key: owner.id, value: '' }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select * from public.profiles where id = $1', [target.key]),
            ),
            byId(target),
          ),
        read: (tx, target) => profileOf(tx, target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        arrange: async () => ({ owner: newcomer, key: newcomer.id, value: unique('created') }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('insert into public.profiles (id, username) values ($1, $2) returning *', [
                target.key,
                target.value,
              ]),
            ),
            byId(target),
          ),
        read: (tx, target) => profileOf(tx, target.key),
        applied: (target, after) => field(after, 'username') === target.value,
      },
      upsert: {
        // The portal's save (docs/product.md#calls): upsert on conflict id, returning the row.
        arrange: async () => ({ owner, key: owner.id, value: unique('upserted') }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(
                `insert into public.profiles (id, username) values ($1, $2)
                 on conflict (id) do update set id = excluded.id, username = excluded.username
                 returning *`,
                [target.key, target.value],
              ),
            ),
            byId(target),
          ),
        read: (tx, target) => profileOf(tx, target.key),
        applied: (target, after) => field(after, 'username') === target.value,
      },
      update: {
        arrange: async () => ({ owner, key: owner.id, value: unique('updated') }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('update public.profiles set username = $2 where id = $1 returning *', [
                target.key,
                target.value,
              ]),
            ),
            byId(target),
          ),
        read: (tx, target) => profileOf(tx, target.key),
        applied: (target, after) => field(after, 'username') === target.value,
      },
      'set wallet': {
        // Only a proof links a wallet (link-wallet, or a sign-in with Ethereum).
        arrange: async () => ({ owner, key: owner.id, value: freshAddress() }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('update public.profiles set wallet_address = $2 where id = $1 returning *', [
                target.key,
                target.value,
              ]),
            ),
            byId(target),
          ),
        read: (tx, target) => profileOf(tx, target.key),
        applied: (target, after) => field(after, 'wallet_address') === target.value,
      },
      'unlink wallet': {
        // The owner's save with the wallet cleared: an upsert of wallet_address null.
        arrange: withWallet,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(
                `insert into public.profiles (id, wallet_address) values ($1, null)
                 on conflict (id) do update set id = excluded.id, wallet_address = excluded.wallet_address
                 returning *`,
                [target.key],
              ),
            ),
            byId(target),
          ),
        read: (tx, target) => profileOf(tx, target.key),
        applied: (_target, after) =>
          field(after, 'wallet_address') === null && field(after, 'wallet_verified_at') === null,
      },
      delete: {
        arrange: async () => ({ owner, key: owner.id, value: '' }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('delete from public.profiles where id = $1 returning *', [target.key]),
            ),
            byId(target),
          ),
        read: (tx, target) => profileOf(tx, target.key),
        applied: (_target, after) => after === null,
      },
    },
    user_notifications: {
      select: {
        arrange: freshNotification,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select * from public.user_notifications where user_id = $1', [target.owner.id]),
            ),
            byId(target),
          ),
        read: (tx, target) => notificationOf(tx, target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        arrange: async () => ({ owner, key: owner.id, value: unique('Self-made') }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(
                `insert into public.user_notifications (user_id, title, message)
                 values ($1, $2, 'Not from the server') returning *`,
                [target.key, target.value],
              ),
            ),
            (row) => row['title'] === target.value,
          ),
        read: async (tx, target) =>
          (
            await tx.query('select * from public.user_notifications where user_id = $1 and title = $2', [
              target.key,
              target.value,
            ])
          ).rows,
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      'update read state': {
        // The portal's "mark read" (docs/product.md#calls): is_read and read_at by id.
        arrange: freshNotification,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(
                'update public.user_notifications set is_read = true, read_at = now() where id = $1 returning *',
                [target.key],
              ),
            ),
            byId(target),
          ),
        read: (tx, target) => notificationOf(tx, target.key),
        applied: (_target, after) => field(after, 'is_read') === true,
      },
      'update title': {
        arrange: freshNotification,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('update public.user_notifications set title = $2 where id = $1 returning *', [
                target.key,
                target.value,
              ]),
            ),
            byId(target),
          ),
        read: (tx, target) => notificationOf(tx, target.key),
        applied: (target, after) => field(after, 'title') === target.value,
      },
      delete: {
        arrange: freshNotification,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('delete from public.user_notifications where id = $1 returning *', [target.key]),
            ),
            byId(target),
          ),
        read: (tx, target) => notificationOf(tx, target.key),
        applied: (_target, after) => after === null,
      },
    },
    transactions: {
      select: {
        arrange: freshTransaction,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select * from public.transactions where user_id = $1', [target.owner.id]),
            ),
            byId(target),
          ),
        read: (tx, target) => transactionOf(tx, target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        arrange: async () => ({ owner, key: owner.id, value: txHash() }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(
                `insert into public.transactions (user_id, type, status, tx_hash)
                 values ($1, 'token_received', 'confirmed', $2) returning *`,
                [target.key, target.value],
              ),
            ),
            (row) => row['tx_hash'] === target.value,
          ),
        read: (tx, target) => transactionsWithHash(tx, target.value),
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      'record_transfer rpc': {
        // The function the server functions record a transfer and its notice with.
        arrange: async () => ({ owner, key: owner.id, value: txHash() }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(
                `select public.record_transfer(p_user_id => $1, p_tx_hash => $2, p_type => 'token_received',
                   p_status => 'confirmed', p_amount => '5', p_token_symbol => 'DDEX',
                   p_title => 'DDEX Received', p_message => 'Not from the server') as recorded`,
                [target.key, target.value],
              ),
            ),
            (row) => row['recorded'] === true,
          ),
        read: (tx, target) => transactionsWithHash(tx, target.value),
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      update: {
        arrange: freshTransaction,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('update public.transactions set amount = $2 where id = $1 returning *', [
                target.key,
                target.value,
              ]),
            ),
            byId(target),
          ),
        read: (tx, target) => transactionOf(tx, target.key),
        applied: (target, after) => field(after, 'amount') === target.value,
      },
      delete: {
        arrange: freshTransaction,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('delete from public.transactions where id = $1 returning *', [target.key]),
            ),
            byId(target),
          ),
        read: (tx, target) => transactionOf(tx, target.key),
        applied: (_target, after) => after === null,
      },
    },
    wallet_link_nonces: {
      select: {
        arrange: issuedNonce,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select * from public.wallet_link_nonces where nonce = $1', [target.key]),
            ),
            byNonce(target),
          ),
        read: (tx, target) => nonceOf(tx, target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A nonce of one's own making, which link-wallet would then accept.
        arrange: async () => ({ owner, key: freshNonce('Forged'), value: freshAddress() }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(
                `insert into public.wallet_link_nonces (nonce, user_id, address, expires_at)
                 values ($1, $2, $3, now() + interval '10 minutes') returning *`,
                [target.key, target.owner.id, target.value],
              ),
            ),
            byNonce(target),
          ),
        read: (tx, target) => nonceOf(tx, target.key),
        applied: (_target, after) => after !== null,
      },
      update: {
        // Handing a spent nonce back, or one issued to someone else over.
        arrange: issuedNonce,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('update public.wallet_link_nonces set used_at = now() where nonce = $1 returning *', [
                target.key,
              ]),
            ),
            byNonce(target),
          ),
        read: (tx, target) => nonceOf(tx, target.key),
        applied: (_target, after) => field(after, 'used_at') != null,
      },
      delete: {
        arrange: issuedNonce,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('delete from public.wallet_link_nonces where nonce = $1 returning *', [target.key]),
            ),
            byNonce(target),
          ),
        read: (tx, target) => nonceOf(tx, target.key),
        applied: (_target, after) => after === null,
      },
    },
    tatum_subscriptions: {
      select: {
        arrange: subscribed,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select * from public.tatum_subscriptions where user_id = $1', [target.owner.id]),
            ),
            byId(target),
          ),
        read: (tx, target) => subscriptionOf(tx, target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A subscription Tatum never made, which List Hooks would then show as the owner's.
        arrange: async () => ({ owner, key: unique('forged-sub'), value: freshAddress() }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(
                `insert into public.tatum_subscriptions (id, user_id, address, url, chain)
                 values ($1, $2, $3, 'https://elsewhere.example.test/hook', 'ETH') returning *`,
                [target.key, target.owner.id, target.value],
              ),
            ),
            byId(target),
          ),
        read: (tx, target) => subscriptionOf(tx, target.key),
        applied: (_target, after) => after !== null,
      },
      update: {
        // Pointing the record at another URL than the one Tatum calls.
        arrange: subscribed,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('update public.tatum_subscriptions set url = $2 where id = $1 returning *', [
                target.key,
                target.value,
              ]),
            ),
            byId(target),
          ),
        read: (tx, target) => subscriptionOf(tx, target.key),
        applied: (target, after) => field(after, 'url') === target.value,
      },
      delete: {
        // Forgetting a subscription Tatum still holds: only Delete First Hook, through the
        // function, removes both.
        arrange: subscribed,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('delete from public.tatum_subscriptions where id = $1 returning *', [target.key]),
            ),
            byId(target),
          ),
        read: (tx, target) => subscriptionOf(tx, target.key),
        applied: (_target, after) => after === null,
      },
      'forget_tatum_subscription rpc': {
        // The function tatum-webhooks forgets a subscription with once Tatum has dropped it.
        arrange: subscribed,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select public.forget_tatum_subscription(p_user_id => $1, p_id => $2) as forgotten', [
                target.owner.id,
                target.key,
              ]),
            ),
            (row) => row['forgotten'] === true,
          ),
        read: (tx, target) => subscriptionOf(tx, target.key),
        applied: (_target, after) => after === null,
      },
    },
    function_rate_limits: {
      select: {
        arrange: counted,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select * from public.function_rate_limits where bucket = $1', [target.key]),
            ),
            byBucket(target),
          ),
        read: (tx, target) => countsOf(tx, target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A window of one's own making, its count set far below zero to buy requests ahead.
        arrange: async () => ({ owner, key: ownersBucket(), value: '-1000000' }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(
                `insert into public.function_rate_limits (bucket, window_start, requests)
                 values ($1, ${CURRENT_WINDOW}, $2) returning *`,
                [target.key, Number(target.value)],
              ),
            ),
            byBucket(target),
          ),
        read: (tx, target) => countsOf(tx, target.key),
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      update: {
        // Winding one's own count back, or someone else's up to lock them out.
        arrange: counted,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('update public.function_rate_limits set requests = $2 where bucket = $1 returning *', [
                target.key,
                Number(target.value),
              ]),
            ),
            byBucket(target),
          ),
        read: (tx, target) => countsOf(tx, target.key),
        applied: (target, after) => requestsIn(after) === Number(target.value),
      },
      delete: {
        arrange: counted,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('delete from public.function_rate_limits where bucket = $1 returning *', [target.key]),
            ),
            byBucket(target),
          ),
        read: (tx, target) => countsOf(tx, target.key),
        applied: (_target, after) => Array.isArray(after) && after.length === 0,
      },
      'take_rate_limit rpc': {
        // The count native-balance takes before it spends the Tatum key's quota.
        arrange: counted,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select public.take_rate_limit($1, 1000000, 60) as wait', [target.key]),
            ),
            (row) => row['wait'] === 0,
          ),
        read: (tx, target) => countsOf(tx, target.key),
        applied: (_target, after) => requestsIn(after) === 2,
      },
    },
    bots: {
      select: {
        arrange: freshBot,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select * from public.bots where user_id = $1', [target.owner.id]),
            ),
            byId(target),
          ),
        read: (tx, target) => botOf(tx, target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // The portal's create: the owner's own bot, named and with one rule.
        arrange: async () => ({ owner, key: owner.id, value: unique('Created') }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(
                `insert into public.bots (user_id, name, kind, level)
                 values ($1, $2, 'price_above', 1000000) returning *`,
                [target.key, target.value],
              ),
            ),
            (row) => row['name'] === target.value,
          ),
        read: async (tx, target) =>
          (
            await tx.query('select * from public.bots where user_id = $1 and name = $2', [
              target.key,
              target.value,
            ])
          ).rows,
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      update: {
        arrange: freshBot,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('update public.bots set name = $2 where id = $1 returning *', [target.key, target.value]),
            ),
            byId(target),
          ),
        read: (tx, target) => botOf(tx, target.key),
        applied: (target, after) => field(after, 'name') === target.value,
      },
      'update server fields': {
        // Making the bot look as if it had just fired, which would keep it cooling down.
        arrange: async (tx) => ({ ...(await freshBot(tx)), value: '2030-01-01T00:00:00.000Z' }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('update public.bots set last_fired_at = $2 where id = $1 returning *', [
                target.key,
                target.value,
              ]),
            ),
            byId(target),
          ),
        read: (tx, target) => botOf(tx, target.key),
        applied: (target, after) =>
          (field(after, 'last_fired_at') as Date | null)?.toISOString() === target.value,
      },
      delete: {
        arrange: freshBot,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('delete from public.bots where id = $1 returning *', [target.key]),
            ),
            byId(target),
          ),
        read: (tx, target) => botOf(tx, target.key),
        applied: (_target, after) => after === null,
      },
    },
    bot_runs: {
      select: {
        arrange: freshRun,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select * from public.bot_runs where user_id = $1', [target.owner.id]),
            ),
            byId(target),
          ),
        read: (tx, target) => runOf(tx, target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A firing the market never made, which the page would show as the bot's.
        arrange: async (tx) => ({ owner, key: await createBot(tx), value: swapHash() }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(
                `insert into public.bot_runs (bot_id, user_id, tx_hash, log_index, block_number, block_time,
                   price_before, price_after, ddex_amount, side)
                 values ($1, $2, $3, 0, 1, now(), 999999, 1000001, 1, 'buy') returning *`,
                [target.key, target.owner.id, target.value],
              ),
            ),
            (row) => row['tx_hash'] === target.value,
          ),
        read: (tx, target) => runsWithHash(tx, target.value),
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      update: {
        arrange: freshRun,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('update public.bot_runs set price_after = $2 where id = $1 returning *', [
                target.key,
                target.value,
              ]),
            ),
            byId(target),
          ),
        read: (tx, target) => runOf(tx, target.key),
        applied: (target, after) => field(after, 'price_after') === target.value,
      },
      delete: {
        arrange: freshRun,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('delete from public.bot_runs where id = $1 returning *', [target.key]),
            ),
            byId(target),
          ),
        read: (tx, target) => runOf(tx, target.key),
        applied: (_target, after) => after === null,
      },
      'evaluate_market_swap rpc': {
        // The function market-bots evaluates a swap with: a swap of one's own making would fire
        // the owner's bot and send its notification.
        arrange: async (tx) => ({ owner, key: await createBot(tx), value: swapHash() }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(
                `select fired from public.evaluate_market_swap($1, $2, 0, 1, now(), 999999, 1000001, 1,
                   'buy', '999999', '1000001', '1')`,
                [MATRIX_PAIR, target.value],
              ),
            ),
            (row) => Number(row['fired']) > 0,
          ),
        read: async (tx, target) =>
          (
            await tx.query('select * from public.bot_runs where bot_id = $1 and tx_hash = $2', [
              target.key,
              target.value,
            ])
          ).rows,
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
    },
    market_prices: {
      select: {
        arrange: recordedPrice,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select * from public.market_prices where tx_hash = $1', [target.key]),
            ),
            byHash(target),
          ),
        read: (tx, target) => pricesWithHash(tx, target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A price the market never had, which a move bot would then measure against.
        arrange: async () => ({ owner, key: swapHash(), value: '' }),
        act: async (tx, caller, target) =>
          answerOf(await tx.request(caller, (query) => insertPrice(query, target.key)), byHash(target)),
        read: (tx, target) => pricesWithHash(tx, target.key),
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
    },
    wallet_watches: {
      select: {
        arrange: watched,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select * from public.wallet_watches where address = $1', [target.key]),
            ),
            byAddress(target),
          ),
        read: (tx, target) => watchOf(tx, target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A watch of one's own making, which the server would take for its subscription.
        arrange: async () => ({ owner, key: freshAddress(), value: 'https://elsewhere.example.test/hook' }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(
                'insert into public.wallet_watches (address, user_id, url) values ($1, $2, $3) returning *',
                [target.key, target.owner.id, target.value],
              ),
            ),
            byAddress(target),
          ),
        read: (tx, target) => watchOf(tx, target.key),
        applied: (_target, after) => after !== null,
      },
      update: {
        // Moving the server's subscription somewhere else.
        arrange: watched,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('update public.wallet_watches set url = $2 where address = $1 returning *', [
                target.key,
                target.value,
              ]),
            ),
            byAddress(target),
          ),
        read: (tx, target) => watchOf(tx, target.key),
        applied: (target, after) => field(after, 'url') === target.value,
      },
      delete: {
        arrange: watched,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('delete from public.wallet_watches where address = $1 returning *', [target.key]),
            ),
            byAddress(target),
          ),
        read: (tx, target) => watchOf(tx, target.key),
        applied: (_target, after) => after === null,
      },
      'forget_wallet_watch rpc': {
        // The function watch-wallets forgets a watch with once Tatum has dropped it.
        arrange: watched,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select public.forget_wallet_watch(p_address => $1) as forgotten', [target.key]),
            ),
            (row) => row['forgotten'] === true,
          ),
        read: (tx, target) => watchOf(tx, target.key),
        applied: (_target, after) => after === null,
      },
    },
    wallet_watch_jobs: {
      select: {
        arrange: queued,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select * from public.wallet_watch_jobs where id = $1', [target.key]),
            ),
            byJob(target),
          ),
        read: (tx, target) => jobOf(tx, target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      insert: {
        // A change nobody made, for the server to act on.
        arrange: async () => ({ owner, key: freshAddress(), value: '' }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('insert into public.wallet_watch_jobs (address, user_id) values ($1, $2) returning *', [
                target.key,
                target.owner.id,
              ]),
            ),
            (row) => row['address'] === target.key,
          ),
        read: (tx, target) => jobsFor(tx, target.key),
        applied: (_target, after) => Array.isArray(after) && after.length === 1,
      },
      update: {
        // Putting a change off, so the server would not act on it.
        arrange: queued,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('update public.wallet_watch_jobs set next_attempt_at = $2 where id = $1 returning *', [
                target.key,
                target.value,
              ]),
            ),
            byJob(target),
          ),
        read: (tx, target) => jobOf(tx, target.key),
        applied: (target, after) => {
          const due = field(after, 'next_attempt_at');
          return due instanceof Date && due.getTime() === Date.parse(target.value);
        },
      },
      delete: {
        arrange: queued,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('delete from public.wallet_watch_jobs where id = $1 returning *', [target.key]),
            ),
            byJob(target),
          ),
        read: (tx, target) => jobOf(tx, target.key),
        applied: (_target, after) => after === null,
      },
      'claim_wallet_watches rpc': {
        // What a drain starts with: a claim holds the queue's addresses from every other drain.
        arrange: queued,
        act: async (tx, caller) =>
          answerOf(
            await tx.request(caller, (query) =>
              query('select * from public.claim_wallet_watches($1, 10, 60)', [WATCH_URL]),
            ),
            () => true,
          ),
        read: (tx, target) => jobOf(tx, target.key),
        applied: (_target, _after, answer) => answer.error === null,
      },
    },
    avatars: {
      upload: {
        // The portal's upload (docs/product.md#avatars-bucket), named "<user id>-<time>.<ext>".
        arrange: async () => ({ owner, key: avatarName(owner), value: 'image/png' }),
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) => upsertObject(query, caller, target.key, target.value)),
            byName(target),
          ),
        read: (tx, target) => objectOf(tx, target.key),
        applied: (target, after) =>
          hasType(after, target.value) && field(after, 'owner_id') === target.owner.id,
      },
      'overwrite (upsert)': {
        arrange: uploadedAvatar,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) => upsertObject(query, caller, target.key, target.value)),
            byName(target),
          ),
        read: (tx, target) => objectOf(tx, target.key),
        applied: (target, after) => hasType(after, target.value),
      },
      'read (public URL)': {
        // The public route reads as the service role whoever asks, once the bucket is public:
        // the caller's claims take no part, so the bucket's public flag is what this proves.
        arrange: uploadedAvatar,
        act: async (tx, _caller, target) =>
          answerOf(
            await tx.request(SERVICE, (query) =>
              query(
                `select o.name from storage.objects o join storage.buckets b on b.id = o.bucket_id
                 where b.id = 'avatars' and b.public and o.name = $1`,
                [target.key],
              ),
            ),
            byName(target),
          ),
        read: (tx, target) => objectOf(tx, target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      list: {
        // storage.search (security invoker) reads storage.objects under the caller's policies.
        arrange: uploadedAvatar,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, (query) =>
              query(`select name from storage.objects where bucket_id = 'avatars' and name like $1 || '%'`, [
                target.key,
              ]),
            ),
            byName(target),
          ),
        read: (tx, target) => objectOf(tx, target.key),
        applied: (_target, _after, answer) => answer.rows === 1,
      },
      delete: {
        // The Storage API lifts the delete protection for the requests it serves.
        arrange: uploadedAvatar,
        act: async (tx, caller, target) =>
          answerOf(
            await tx.request(caller, async (query) => {
              await query(`select set_config('storage.allow_delete_query', 'true', true)`);
              return query(
                `delete from storage.objects where bucket_id = 'avatars' and name = any($1) returning *`,
                [[target.key]],
              );
            }),
            byName(target),
          ),
        read: (tx, target) => objectOf(tx, target.key),
        applied: (_target, after) => after === null,
      },
    },
  } satisfies ProbesFor<SqlProbe>;
}
