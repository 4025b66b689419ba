// Who may do what to whose data, as supabase/migrations declare it: one table, run by two engines.
// tests/contract/policy-matrix.test.ts makes each call through supabase-js against the local stack
// (@supabase/lite on PGlite); tests/postgres/policy-matrix.test.ts makes it at the SQL level on a
// real PostgreSQL loaded like a hosted project (stack/postgres/). Every cell acts on a row or object
// of "the owner" and is judged on what it answered and on the state read back afterwards: a
// forbidden update or delete under row level security succeeds and touches nothing, so only the
// state tells.
//
// The engines differ in one place, and the table says where:
// - Grants. The migrations revoke table and column grants from the API roles. A real PostgreSQL
//   enforces them, as hosted does; lite grants every table to the API roles at runtime (its
//   PostgresConnection/PgliteConnection run GRANT ALL ON ALL TABLES), so there only RLS decides.
//   Such a cell is 'revoked'.
// Storage calls are judged through the local storage endpoint on lite, which runs each as the
// caller, and at the SQL level (the statements the Storage API runs) on PostgreSQL.

export const ACTORS = ['anon', 'other user', 'owner'] as const;
export type Actor = (typeof ACTORS)[number];

export const ENGINES = ['lite', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

/** What a cell's call comes to on one engine. */
export type Verdict =
  /** The call succeeds and did what it asked. */
  | 'allowed'
  /** The call is refused (lite: 401/403; PostgreSQL: SQLSTATE 42501) and nothing changed. */
  | 'refused'
  /** PostgreSQL only: refused by the grants ("permission denied for …", 42501) before any policy. */
  | 'no privilege'
  /** Row level security filters the target out: the call succeeds, returns or touches none of it, and nothing changed. */
  | 'invisible';

/** A cell of the table: what the call comes to on each engine, named once here. */
export const OUTCOMES = {
  allowed: { lite: 'allowed', postgres: 'allowed' },
  denied: { lite: 'refused', postgres: 'refused' },
  invisible: { lite: 'invisible', postgres: 'invisible' },
  /** Denied by the table or column grants on a real PostgreSQL (as hosted); invisible on lite, which re-grants every table. */
  revoked: { lite: 'invisible', postgres: 'no privilege' },
} as const satisfies Record<string, Record<Engine, Verdict>>;

export type Outcome = keyof typeof OUTCOMES;

/** One line of the matrix: a resource, a verb on it, and the outcome for anon, another user and the owner. */
export type PolicyRow = readonly [
  resource: string,
  verb: string,
  anon: Outcome,
  other: Outcome,
  owner: Outcome,
];

// 'set wallet' writes an address on the profile and 'unlink wallet' saves it as null: only a proof
// (link-wallet, or a sign-in with Ethereum) sets a wallet, and its owner may only unlink it. A
// wallet_link_nonces row is "the owner's" when it was issued to them; only link-wallet (the
// service role) touches that table. A tatum_subscriptions row is the owner's when tatum-webhooks
// subscribed their wallet: they read it, and only that function writes or forgets it. A
// function_rate_limits row is the owner's when it counts their client's requests to
// native-balance; only that function (take_rate_limit) counts, and no API role reads the counts.
// A bots row is the owner's market bot: they create, rename, pause and delete it, but never set
// what the server keeps ('update server fields': when it last fired or was armed). A bot_runs row is a firing of the owner's bot: only evaluate_market_swap (the
// market-bots function, as the service role) records one, and the owner reads it. market_prices
// is the pair's recent price history, which no API role reads or writes. A wallet_watches row is
// the server's subscription of the owner's proven wallet and a wallet_watch_jobs row a change of
// it waiting to be reconciled: only the watch-wallets function (the service role) reads or writes
// either, so no one can stop the server watching a wallet, watch another, or hold up the queue.
// prettier-ignore
export const POLICY = [
  // resource               verb                             anon                      other user                owner
  ['profiles',             'select',                        'revoked',                'invisible',              'allowed'],
  ['profiles',             'insert',                        'denied',                 'denied',                 'allowed'],
  ['profiles',             'upsert',                        'denied',                 'denied',                 'allowed'],
  ['profiles',             'update',                        'revoked',                'invisible',              'allowed'],
  ['profiles',             'set wallet',                    'revoked',                'invisible',              'denied'],
  ['profiles',             'unlink wallet',                 'denied',                 'denied',                 'allowed'],
  ['profiles',             'delete',                        'revoked',                'revoked',                'revoked'],
  ['user_notifications',   'select',                        'revoked',                'invisible',              'allowed'],
  ['user_notifications',   'insert',                        'denied',                 'denied',                 'denied'],
  ['user_notifications',   'update read state',             'revoked',                'invisible',              'allowed'],
  ['user_notifications',   'update title',                  'revoked',                'revoked',                'denied'],
  ['user_notifications',   'delete',                        'revoked',                'invisible',              'allowed'],
  ['transactions',         'select',                        'revoked',                'invisible',              'allowed'],
  ['transactions',         'insert',                        'denied',                 'denied',                 'denied'],
  ['transactions',         'record_transfer rpc',           'denied',                 'denied',                 'denied'],
  ['transactions',         'update',                        'revoked',                'revoked',                'revoked'],
  ['transactions',         'delete',                        'revoked',                'revoked',                'revoked'],
  ['wallet_link_nonces',   'select',                        'revoked',                'revoked',                'revoked'],
  ['wallet_link_nonces',   'insert',                        'denied',                 'denied',                 'denied'],
  ['wallet_link_nonces',   'update',                        'revoked',                'revoked',                'revoked'],
  ['wallet_link_nonces',   'delete',                        'revoked',                'revoked',                'revoked'],
  ['tatum_subscriptions',  'select',                        'revoked',                'invisible',              'allowed'],
  ['tatum_subscriptions',  'insert',                        'denied',                 'denied',                 'denied'],
  ['tatum_subscriptions',  'update',                        'revoked',                'revoked',                'revoked'],
  ['tatum_subscriptions',  'delete',                        'revoked',                'revoked',                'revoked'],
  ['tatum_subscriptions',  'forget_tatum_subscription rpc', 'denied',                 'denied',                 'denied'],
  ['function_rate_limits', 'select',                        'revoked',                'revoked',                'revoked'],
  ['function_rate_limits', 'insert',                        'denied',                 'denied',                 'denied'],
  ['function_rate_limits', 'update',                        'revoked',                'revoked',                'revoked'],
  ['function_rate_limits', 'delete',                        'revoked',                'revoked',                'revoked'],
  ['function_rate_limits', 'take_rate_limit rpc',           'denied',                 'denied',                 'denied'],
  ['bots',                 'select',                        'revoked',                'invisible',              'allowed'],
  ['bots',                 'insert',                        'denied',                 'denied',                 'allowed'],
  ['bots',                 'update',                        'revoked',                'invisible',              'allowed'],
  ['bots',                 'update server fields',          'revoked',                'revoked',                'denied'],
  ['bots',                 'delete',                        'revoked',                'invisible',              'allowed'],
  ['bot_runs',             'select',                        'revoked',                'invisible',              'allowed'],
  ['bot_runs',             'insert',                        'denied',                 'denied',                 'denied'],
  ['bot_runs',             'update',                        'revoked',                'revoked',                'revoked'],
  ['bot_runs',             'delete',                        'revoked',                'revoked',                'revoked'],
  ['bot_runs',             'evaluate_market_swap rpc',      'denied',                 'denied',                 'denied'],
  ['market_prices',        'select',                        'revoked',                'revoked',                'revoked'],
  ['market_prices',        'insert',                        'denied',                 'denied',                 'denied'],
  ['wallet_watches',       'select',                        'revoked',                'revoked',                'revoked'],
  ['wallet_watches',       'insert',                        'denied',                 'denied',                 'denied'],
  ['wallet_watches',       'update',                        'revoked',                'revoked',                'revoked'],
  ['wallet_watches',       'delete',                        'revoked',                'revoked',                'revoked'],
  ['wallet_watches',       'forget_wallet_watch rpc',       'denied',                 'denied',                 'denied'],
  ['wallet_watch_jobs',    'select',                        'revoked',                'revoked',                'revoked'],
  ['wallet_watch_jobs',    'insert',                        'denied',                 'denied',                 'denied'],
  ['wallet_watch_jobs',    'update',                        'revoked',                'revoked',                'revoked'],
  ['wallet_watch_jobs',    'delete',                        'revoked',                'revoked',                'revoked'],
  ['wallet_watch_jobs',    'claim_wallet_watches rpc',      'denied',                 'denied',                 'denied'],
  ['avatars',              'upload',                        'denied',                 'denied',                 'allowed'],
  ['avatars',              'overwrite (upsert)',            'denied',                 'denied',                 'allowed'],
  ['avatars',              'read (public URL)',             'allowed',                'allowed',                'allowed'],
  ['avatars',              'list',                          'invisible',              'invisible',              'allowed'],
  ['avatars',              'delete',                        'invisible',              'invisible',              'allowed'],
] as const satisfies readonly PolicyRow[];

type Row = (typeof POLICY)[number];
export type Resource = Row[0];
export type VerbOf<R extends Resource> = Extract<Row, readonly [R, ...unknown[]]>[1];

/** What an engine's probes must provide: one probe for every row of the table, and no other. */
export type ProbesFor<P> = { [R in Resource]: { [V in VerbOf<R>]: P } };

/** One test per cell: [resource, verb, actor, outcome]. */
export const CELLS: [string, string, Actor, Outcome][] = POLICY.flatMap(
  ([resource, verb, anon, other, owner]) => {
    const byActor: Record<Actor, Outcome> = { anon, 'other user': other, owner };
    return ACTORS.map((actor): [string, string, Actor, Outcome] => [resource, verb, actor, byActor[actor]]);
  },
);

/** The table's rows as "resource · verb", to compare with the probes an engine has. */
export const ROWS = POLICY.map(([resource, verb]) => `${resource} · ${verb}`);

/** The same for a set of probes. */
export function rowsOf(probes: Record<string, Record<string, unknown>>): string[] {
  return Object.entries(probes).flatMap(([resource, byVerb]) =>
    Object.keys(byVerb).map((verb) => `${resource} · ${verb}`),
  );
}

/** What the table expects of a cell on an engine. */
export const verdictOf = (outcome: Outcome, engine: Engine): Verdict => OUTCOMES[outcome][engine];
