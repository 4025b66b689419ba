import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import {
  App,
  ConsoleEmailDriver,
  InMemoryEmailDriver,
  SmtpEmailDriver,
  type EmailDriver,
  type PartialAppDrivers,
} from '@supabase/lite';
import { applyPendingMigrations } from '@supabase/lite/cli';
import { createPgliteConnection } from '@supabase/lite/pglite';
import type { PGlite } from '@electric-sql/pglite';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { Database } from '../../src/domain/database.types.ts';
import { createMarketBotsHandler } from '../../supabase/functions/market-bots/handler.ts';
import {
  createProcessPaymentsHandler,
  DEFAULT_TATUM_CHAIN,
} from '../../supabase/functions/process-payments/handler.ts';
import { createRecordTransactionHandler } from '../../supabase/functions/record-transaction/handler.ts';
import { createLinkWalletHandler } from '../../supabase/functions/link-wallet/handler.ts';
import {
  createNativeBalanceHandler,
  DEFAULT_RATE_LIMIT,
  parseRateLimit,
} from '../../supabase/functions/native-balance/handler.ts';
import { createTatumWebhooksHandler } from '../../supabase/functions/tatum-webhooks/handler.ts';
import {
  createWatchWalletsHandler,
  walletEventsUrl,
} from '../../supabase/functions/watch-wallets/handler.ts';
import { createRpcClient } from '../../supabase/functions/_shared/rpc.ts';
import { createTatumApi } from '../../supabase/functions/_shared/tatum.ts';
import { marketPair } from '../../supabase/functions/_shared/uniswap-pair.ts';
import { createClaimsResolver, createRestTokenCheck } from './claims.ts';
import { exclusiveKysely } from './exclusive-transactions.ts';
import { bodyBoundFor, boundedRequest } from './body-bounds.ts';
import { createFunctionsHandler, type FunctionHandler } from './functions.ts';
import { parseFunctionSettings, verifiesJwt } from './function-settings.ts';
import { functionNames, relayTo, startDenoFunction, type DenoFunction } from '../functions/deno.ts';
import { json, restPreflight, withCors } from './http.ts';
import { startChangeFeed } from './realtime/feed.ts';
import { authRateLimitOf, createAuthRateLimiter } from './auth-rate-limit.ts';
import { HCAPTCHA_TEST_KEYS, hcaptchaSiteverify } from './hcaptcha-siteverify.ts';
import { createFaucetHandler } from '../../supabase/functions/faucet/handler.ts';
import { createEmailAlertsHandler } from '../../supabase/functions/email-alerts/handler.ts';
import { createEmailUnsubscribeHandler } from '../../supabase/functions/email-unsubscribe/handler.ts';
import { createSmtpMailer } from '../../supabase/functions/_shared/smtp.ts';
import type { RealtimeLimits } from './realtime/limits.ts';
import { attachRealtime } from './realtime/server.ts';
import { loadOrCreateSecrets } from './secrets.ts';
import { createStorageHandler } from './storage.ts';
import { startTatumEmulator, type TatumEmulator } from './tatum/index.ts';
import { installQueueTriggers, startQueueWebhook, type QueueWebhook } from './queue-webhook.ts';
import { keepingExitCode } from './exit-code.ts';
import { web3EthereumEnabled, web3GrantMiddleware } from './web3-grant.ts';

// The local Supabase: lite's App (Auth + PostgREST on PGlite) behind one HTTP
// server, with our Storage, Realtime and Functions endpoints in front of it.

export type GatewayOptions = {
  port: number;
  dataDir: string;
  fresh?: boolean;
  emailConfirmations?: boolean;
  siteUrl?: string;
  /** The DDEX contract, so token webhooks are recorded as DDEX rather than by address. */
  tokenAddress?: string | null;
  /** Keep auth emails in memory (tests) instead of printing them. */
  quietEmail?: boolean;
  /**
   * Where the project's mail goes, as a hosted project's SMTP settings say (the local mailbox,
   * stack/mail/mailbox.ts): Auth's confirmation and recovery mails (without it, and without
   * quietEmail, they are printed in the log), and the email alerts, which email-alerts sends.
   * Without it email-alerts is not served: alerts wait in email_outbox for a stack that has it.
   */
  smtp?: SmtpSettings | null;
  /** First retry delay of an email alert the mail server did not take (doubles per attempt); tests shorten it. */
  emailRetryBaseMs?: number;
  /**
   * The local chain. Without it there is no Tatum emulator and no record-transaction function, and
   * without it and a chain id no link-wallet function.
   */
  rpcUrl?: string | null;
  /**
   * The chain's Uniswap V2 router (the app's VITE_UNISWAP_V2_ROUTER): record-transaction reads the
   * DDEX/WETH pair from it and records swaps there. Without it, swaps are refused, and no bot runs
   * (market-bots is not served, and the pair is not subscribed).
   */
  uniswapRouter?: string | null;
  /** First retry delay of the emulator's webhook deliveries (doubles per attempt); tests shorten it. */
  webhookRetryBaseMs?: number;
  /**
   * Where the functions reach Tatum (their TATUM_API_URL): the stack's own emulator when absent.
   * Tests put a proxy in front of the emulator here to make Tatum refuse or vanish.
   */
  functionsTatumUrl?: string | null;
  /**
   * How the Edge Functions run: 'deno' (the default) starts each from its real entry point with
   * `deno run`, as deployed; 'node' serves the same handlers in this process.
   */
  functions?: FunctionsRuntime;
  /** Where the Deno functions' log lines go (the stack prints them; tests keep them quiet). */
  functionLog?: (line: string) => void;
  /**
   * The chain Sign in with Ethereum accepts messages for (null accepts any), and the one link-wallet
   * requires (without it, link-wallet is not served).
   */
  chainId?: number | null;
  /**
   * native-balance's limit per client, `<requests>/<seconds>` (its BALANCE_RATE_LIMIT); the
   * function's own default (30/60) when absent. Every local caller is 127.0.0.1 to it.
   */
  balanceRateLimit?: string;
  /**
   * Sign-ups and sign-ins per address, `<requests>/<seconds>`: supabase/config.toml's
   * `[auth.rate_limit] sign_in_sign_ups` per 5 minutes when absent (auth-rate-limit.ts). Every local client is 127.0.0.1, so stacks that sign many users
   * up (tests, benchmarks) set a larger one.
   */
  authRateLimit?: string;
  /**
   * The faucet wallet's key (the faucet function's FAUCET_PRIVATE_KEY): a funded test account of the
   * chain that nothing else sends from. Without it, or without the chain, the faucet is not served.
   */
  faucetPrivateKey?: Hex | null;
  /** Caps on Realtime sockets and on one change's RLS checks (realtime/limits.ts has the defaults). */
  realtimeLimits?: Partial<RealtimeLimits>;
  /** How long a client may take to send a request's headers (default 10 s); then 408 and closed. */
  headersTimeoutMs?: number;
  /** How long a client may take to send a whole request, body included (default 30 s). */
  requestTimeoutMs?: number;
};

export type FunctionsRuntime = 'deno' | 'node';

/** A project's SMTP settings (config.toml's [auth.email.smtp]). */
export type SmtpSettings = {
  host: string;
  port: number;
  user?: string;
  pass?: string;
  /** The sender's address (admin_email) and name (sender_name). */
  from: { address: string; name: string };
};

/** The sender of the local stack's mail. */
export const LOCAL_MAIL_FROM = { address: 'no-reply@ddex.local', name: 'DDEX Token Portal' };

export type Gateway = {
  url: string;
  port: number;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  webhookSecret: string;
  /** The key the Tatum emulator requires (x-api-key); the functions get it as TATUM_API_KEY. */
  tatumApiKey: string;
  /** Signs the email alerts' unsubscribe links (EMAIL_UNSUBSCRIBE_SECRET); tests sweep for it. */
  emailUnsubscribeSecret: string;
  /** The Tatum emulator's REST base, with the trailing slash the SDK needs; null without a chain. */
  tatumApiUrl: string | null;
  pg: PGlite;
  mailbox: InMemoryEmailDriver | null;
  /** How the Edge Functions run, and (under Deno) each one's own server, behind the gateway. */
  functions: { runtime: FunctionsRuntime; urls: Record<string, string> };
  /** How many Realtime sockets are open: what the socket caps count. */
  realtimeSockets(): number;
  close(): Promise<void>;
};

const PROJECT_DIR = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const SQL_DIR = join(PROJECT_DIR, 'stack', 'sql');

export function startGateway(options: GatewayOptions): Promise<Gateway> {
  return keepingExitCode(() => start(options));
}

async function start(options: GatewayOptions): Promise<Gateway> {
  // lite and its dependencies must not phone home from a developer's machine.
  process.env['LITE_TELEMETRY'] = '0';
  process.env['DO_NOT_TRACK'] = '1';
  if (resolve(process.cwd()) !== PROJECT_DIR) {
    // lite's migrator reads ./supabase/migrations relative to the working directory.
    throw new Error(`Start the gateway from the project folder (${PROJECT_DIR}), not ${process.cwd()}.`);
  }
  // The project's settings a hosted project takes from config.toml: read once, each setting looked up.
  const configToml = readFileSync(join(PROJECT_DIR, 'supabase', 'config.toml'), 'utf8');
  const authRateLimit =
    options.authRateLimit === undefined ? authRateLimitOf(configToml) : parseRateLimit(options.authRateLimit);
  if (authRateLimit === null) throw new Error('authRateLimit must be <requests>/<seconds>');
  const authLimiter = createAuthRateLimiter(authRateLimit);
  if (options.fresh) rmSync(options.dataDir, { recursive: true, force: true });
  const isNew = !existsSync(join(options.dataDir, 'pg'));
  mkdirSync(options.dataDir, { recursive: true });
  const secrets = await loadOrCreateSecrets(options.dataDir);

  const connection = await createPgliteConnection({ url: join(options.dataDir, 'pg') });
  // Each request's transaction holds the one connection until it ends (exclusive-transactions.ts).
  connection.kysely = exclusiveKysely(connection.driver);
  const mailbox = options.quietEmail ? new InMemoryEmailDriver() : null;
  const siteUrl = options.siteUrl ?? 'http://127.0.0.1:5173';
  // lite writes the confirmation link on the site URL (the app), where hosted
  // Supabase puts it on the API, which verifies and then redirects to the app.
  // Mail goes out only after the gateway listens, so its URL is known by then.
  let apiUrl = '';
  const sink: EmailDriver = mailbox ?? (options.smtp ? smtpDriver(options.smtp) : new ConsoleEmailDriver());
  const drivers: PartialAppDrivers = {
    email: {
      send: (message) =>
        sink.send({
          ...message,
          text: message.text?.replaceAll(`${siteUrl}/auth/v1/verify`, `${apiUrl}/auth/v1/verify`),
          html: message.html?.replaceAll(`${siteUrl}/auth/v1/verify`, `${apiUrl}/auth/v1/verify`),
        }),
    },
  };
  const app = new App({
    connection,
    auth: {
      enabled: true,
      jwt_secret: secrets.jwtSecret,
      jwt_expiry: 3600,
      publishable_key: secrets.anonKey,
      secret_key: secrets.serviceRoleKey,
      site_url: siteUrl,
      additional_redirect_urls: [siteUrl],
      email: { enable_confirmations: options.emailConfirmations ?? false },
    },
    options: {
      server: {
        admin: false,
        disableStudio: true,
        // lite has no Web3 grant yet: ours answers it and issues the session through lite.
        middlewares: [
          web3GrantMiddleware({
            pg: connection.driver,
            apiKeys: [secrets.anonKey, secrets.serviceRoleKey],
            enabled: web3EthereumEnabled(configToml),
            allowedUrls: [siteUrl],
            chainId: options.chainId ?? null,
          }),
        ],
      },
      drivers,
    },
  });
  await app.init();
  await app.ensureSystemSchema();
  const pg = connection.driver;
  await pg.exec(readFileSync(join(SQL_DIR, 'hosted-equivalents.sql'), 'utf8'));
  await applyPendingMigrations(app);
  if (isNew) await pg.exec(readFileSync(join(PROJECT_DIR, 'supabase', 'seed.sql'), 'utf8'));
  await pg.exec(readFileSync(join(SQL_DIR, 'realtime.sql'), 'utf8'));
  await pg.exec(readFileSync(join(SQL_DIR, 'web3.sql'), 'utf8'));
  await pg.query('select _realtime.sync_publication()');

  const resolveClaims = createClaimsResolver(secrets);
  const restTokenRefusal = createRestTokenCheck(secrets);
  const storage = createStorageHandler({ pg, dir: join(options.dataDir, 'storage'), resolveClaims });
  // The functions' service-role client calls this gateway, whose port (0 picks one) is known only
  // once it listens; the handlers are made right after, and this placeholder stands in until then.
  let functions: FunctionHandler = async () =>
    json(503, { error: 'Starting', message: 'Functions are starting' });
  let tatum: TatumEmulator | null = null;

  const timeouts = {
    headersMs: options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
    requestMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  };
  const server = await listen(options.port, timeouts, async (request, peerAddress) => {
    // Routed on the path as lite's router reads it (percent-escapes decoded), so an escaped letter
    // (/%72est/v1/…) cannot reach lite's REST without the token check below.
    const path = routingPath(new URL(request.url).pathname);
    if (path.startsWith('/storage/v1/')) return withCors(request, storage);
    // As the platform's edge does, the function learns the caller's address from x-forwarded-for,
    // written here from the socket: what a client sends in that header is replaced, not trusted.
    if (path.startsWith('/functions/v1/')) {
      const headers = new Headers(request.headers);
      if (peerAddress) headers.set('x-forwarded-for', peerAddress);
      else headers.delete('x-forwarded-for');
      return withCors(new Request(request, { headers }), functions);
    }
    // lite's configuration, schema and data path, which it serves without any key: a hosted
    // project has no such routes.
    if (path === '/_system' || path.startsWith('/_system/')) return json(404, { message: 'Not found' });
    // hCaptcha's siteverify, for the faucet's human check (it bounds its small form itself).
    if (path === '/hcaptcha/siteverify') return hcaptchaSiteverify(request);
    // The emulator counts its bodies itself, and refuses them in Tatum's error shape.
    if (path.startsWith('/tatum/v4/')) return tatum ? tatum.handle(request) : notServed(path);
    const bounded = await boundedRequest(request, bodyBoundFor(path));
    if (bounded instanceof Response) return withCors(request, async () => bounded);
    // lite answers auth preflights without Access-Control-Allow-Headers, which
    // browsers need for supabase-js's content-type, apikey and authorization.
    if (path.startsWith('/auth/v1/')) {
      const refusal = authLimiter(bounded, peerAddress);
      return withCors(bounded, refusal ? async () => refusal : (r) => app.fetch(r, { peerAddress }));
    }
    // lite answers a preflight for a table but not for a function (/rest/v1/rpc/…, 404), where
    // PostgREST answers both alike: the gateway answers a function's as lite answers a table's.
    if (path.startsWith('/rest/v1/rpc/') && request.method === 'OPTIONS') return restPreflight(bounded);
    // lite lets some bearer tokens through that PostgREST refuses (claims.ts says which).
    if (path.startsWith('/rest/v1/')) {
      const refusal = await restTokenRefusal(bounded);
      if (refusal) return withCors(bounded, async () => refusal);
    }
    return app.fetch(bounded, { peerAddress });
  });
  const port = (server.address() as AddressInfo).port;
  apiUrl = `http://127.0.0.1:${port}`;
  const functionSettings = parseFunctionSettings(configToml);
  // record-transaction and link-wallet read the chain; without one they are not served, in either
  // runtime. link-wallet also needs the chain its proofs must be signed for.
  // The Tatum functions need the emulator, which needs the chain.
  const needs: Record<string, boolean> = {
    'record-transaction': !!(options.rpcUrl && options.tokenAddress),
    'link-wallet': !!(options.rpcUrl && options.chainId),
    'tatum-webhooks': !!options.rpcUrl,
    'native-balance': !!options.rpcUrl,
    'market-bots': !!(options.rpcUrl && options.tokenAddress && options.uniswapRouter),
    'watch-wallets': !!options.rpcUrl,
    'email-alerts': !!options.smtp,
    faucet: !!(options.rpcUrl && options.tokenAddress && options.chainId && options.faucetPrivateKey),
  };
  const faucetAddress = options.faucetPrivateKey
    ? privateKeyToAccount(options.faucetPrivateKey).address
    : null;
  // The faucet's settings as a hosted project sets them, with hCaptcha's test keys against the
  // stack's own siteverify (hcaptcha-siteverify.ts), and a little ETH for gas on the local chain.
  const faucetSettings = {
    FAUCET_AMOUNT: '100',
    FAUCET_ETH_AMOUNT: '0.1',
    HCAPTCHA_SECRET: HCAPTCHA_TEST_KEYS.secret,
    HCAPTCHA_SITEKEY: HCAPTCHA_TEST_KEYS.siteKey,
    HCAPTCHA_VERIFY_URL: `${apiUrl}/hcaptcha/siteverify`,
  };
  const tatumApiUrl = options.rpcUrl ? `${apiUrl}/tatum/v4/` : null;
  const functionsTatumUrl = options.functionsTatumUrl ?? tatumApiUrl;
  const balanceRateLimit =
    options.balanceRateLimit === undefined ? DEFAULT_RATE_LIMIT : parseRateLimit(options.balanceRateLimit);
  if (balanceRateLimit === null) throw new Error('balanceRateLimit must be <requests>/<seconds>');
  const served = (name: string) => needs[name] ?? true;
  const denoFunctions: DenoFunction[] = [];
  // Nothing started so far outlives a failed start: not the functions, not the server.
  const abandonStart = async () => {
    await Promise.all(denoFunctions.map((fn) => fn.stop()));
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
    await keepingExitCode(() => connection.close());
  };
  let handlers: Record<string, FunctionHandler>;
  if ((options.functions ?? 'deno') === 'deno') {
    // The environment a hosted project gives every function, plus the secrets docs/deploy.md names.
    const env: Record<string, string> = {
      SUPABASE_URL: apiUrl,
      SUPABASE_ANON_KEY: secrets.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: secrets.serviceRoleKey,
      TATUM_WEBHOOK_SECRET: secrets.webhookSecret,
      ...(options.tokenAddress ? { DDEX_TOKEN_ADDRESS: options.tokenAddress } : {}),
      ...(options.rpcUrl ? { RPC_URL: options.rpcUrl } : {}),
      ...(options.uniswapRouter ? { UNISWAP_V2_ROUTER: options.uniswapRouter } : {}),
      ...(options.chainId ? { CHAIN_ID: String(options.chainId) } : {}),
      SITE_URL: siteUrl,
      // The network the emulator's deliveries name (its default); process-payments records no other.
      TATUM_CHAIN: 'ethereum-sepolia',
      ...(functionsTatumUrl ? { TATUM_API_KEY: secrets.tatumApiKey, TATUM_API_URL: functionsTatumUrl } : {}),
      ...(options.balanceRateLimit ? { BALANCE_RATE_LIMIT: options.balanceRateLimit } : {}),
      ...(options.faucetPrivateKey
        ? {
            FAUCET_PRIVATE_KEY: options.faucetPrivateKey,
            FAUCET_ADDRESS: faucetAddress ?? '',
            ...faucetSettings,
          }
        : {}),
      EMAIL_UNSUBSCRIBE_SECRET: secrets.emailUnsubscribeSecret,
      ...(options.smtp ? smtpEnv(options.smtp) : {}),
      ...(options.emailRetryBaseMs !== undefined
        ? { EMAIL_RETRY_BASE_MS: String(options.emailRetryBaseMs) }
        : {}),
    };
    try {
      for (const name of functionNames().filter(served)) {
        denoFunctions.push(await startDenoFunction(name, env, options.functionLog));
      }
    } catch (error) {
      await abandonStart();
      throw error;
    }
    handlers = Object.fromEntries(denoFunctions.map((fn) => [fn.name, relayTo(fn, options.functionLog)]));
  } else {
    const functionsClient = createClient<Database>(`http://127.0.0.1:${port}`, secrets.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      // realtime-js needs a WebSocket transport on Node 20, even though this client never subscribes.
      realtime: { transport: WebSocket as never },
    });
    handlers = {
      'process-payments': createProcessPaymentsHandler({
        webhookSecret: secrets.webhookSecret,
        supabase: functionsClient,
        tokenAddress: options.tokenAddress ?? null,
        uniswapRouter: options.rpcUrl ? (options.uniswapRouter ?? null) : null,
        rpcUrl: options.rpcUrl ?? null,
        faucetAddress,
      }),
      'email-unsubscribe': createEmailUnsubscribeHandler({
        supabase: functionsClient,
        secret: secrets.emailUnsubscribeSecret,
        siteUrl,
      }),
    };
    if (options.smtp) {
      handlers['email-alerts'] = createEmailAlertsHandler({
        supabase: functionsClient,
        mailer: createSmtpMailer({
          host: options.smtp.host,
          port: options.smtp.port,
          user: options.smtp.user ?? null,
          pass: options.smtp.pass ?? null,
          clientName: new URL(siteUrl).hostname,
        }),
        from: options.smtp.from,
        siteUrl,
        supabaseUrl: apiUrl,
        unsubscribeSecret: secrets.emailUnsubscribeSecret,
        callerKeys: [secrets.serviceRoleKey],
        ...(options.emailRetryBaseMs !== undefined ? { retryBaseMs: options.emailRetryBaseMs } : {}),
        secrets: options.smtp.pass ? [options.smtp.pass] : [],
      });
    }
    if (options.rpcUrl && options.tokenAddress) {
      handlers['record-transaction'] = createRecordTransactionHandler({
        supabase: functionsClient,
        rpcUrl: options.rpcUrl,
        tokenAddress: options.tokenAddress,
        uniswapRouter: options.uniswapRouter ?? null,
        faucetAddress,
      });
    }
    if (options.rpcUrl && functionsTatumUrl) {
      const tatumApi = createTatumApi({
        apiKey: secrets.tatumApiKey,
        apiUrl: functionsTatumUrl,
        rpcUrl: options.rpcUrl,
        mainnet: options.chainId === 1,
      });
      handlers['tatum-webhooks'] = createTatumWebhooksHandler({
        supabase: functionsClient,
        tatum: tatumApi,
        callbackUrl: `${apiUrl}/functions/v1/process-payments`,
      });
      handlers['native-balance'] = createNativeBalanceHandler({
        supabase: functionsClient,
        tatum: tatumApi,
        apiKeys: [secrets.anonKey],
        limit: balanceRateLimit,
      });
      handlers['watch-wallets'] = createWatchWalletsHandler({
        supabase: functionsClient,
        tatum: tatumApi,
        callbackUrl: walletEventsUrl(apiUrl),
        callerKeys: [secrets.serviceRoleKey],
      });
    }
    if (options.rpcUrl && options.tokenAddress && options.uniswapRouter) {
      handlers['market-bots'] = createMarketBotsHandler({
        webhookSecret: secrets.webhookSecret,
        supabase: functionsClient,
        rpcUrl: options.rpcUrl,
        uniswapRouter: options.uniswapRouter,
        tokenAddress: options.tokenAddress,
        chain: DEFAULT_TATUM_CHAIN,
      });
    }
    if (options.rpcUrl && options.tokenAddress && options.chainId && options.faucetPrivateKey) {
      handlers['faucet'] = createFaucetHandler({
        supabase: functionsClient,
        rpcUrl: options.rpcUrl,
        chainId: options.chainId,
        tokenAddress: options.tokenAddress as Address,
        faucetKey: options.faucetPrivateKey,
        amount: faucetSettings.FAUCET_AMOUNT,
        ethAmount: faucetSettings.FAUCET_ETH_AMOUNT,
        human: {
          secret: faucetSettings.HCAPTCHA_SECRET,
          siteKey: faucetSettings.HCAPTCHA_SITEKEY,
          verifyUrl: faucetSettings.HCAPTCHA_VERIFY_URL,
        },
      });
    }
    if (options.rpcUrl && options.chainId) {
      handlers['link-wallet'] = createLinkWalletHandler({
        supabase: functionsClient,
        rpcUrl: options.rpcUrl,
        chainId: options.chainId,
        siteUrl,
      });
    }
  }
  functions = createFunctionsHandler(handlers, {
    jwtSecret: secrets.jwtSecret,
    verifies: (name) => verifiesJwt(functionSettings, name),
  });
  let feed: Awaited<ReturnType<typeof startChangeFeed>>;
  let realtime: ReturnType<typeof attachRealtime>;
  const queueWebhooks: QueueWebhook[] = [];
  // What has started by the time a later step fails, stopped in reverse before the rest goes.
  const startedParts: (() => Promise<void>)[] = [];
  try {
    feed = await startChangeFeed(pg);
    startedParts.push(() => feed.stop());
    realtime = attachRealtime({
      server,
      pg,
      feed,
      resolveClaims,
      ...(options.realtimeLimits ? { limits: options.realtimeLimits } : {}),
    });
    startedParts.push(() => realtime.close());
    if (options.rpcUrl) {
      const emulator = await startTatumEmulator({
        pg,
        rpcUrl: options.rpcUrl,
        webhookSecret: secrets.webhookSecret,
        apiKey: secrets.tatumApiKey,
        siteUrl,
        retryBaseMs: options.webhookRetryBaseMs,
      });
      tatum = emulator;
      startedParts.push(() => emulator.close());
      if (options.tokenAddress && options.uniswapRouter) {
        await subscribeMarket(emulator, options.rpcUrl, options.uniswapRouter, options.tokenAddress, apiUrl);
      }
    }
    await installQueueTriggers(pg);
    for (const queue of QUEUES.filter((each) => served(each.fn))) {
      const webhook = await startQueueWebhook({
        pg,
        name: queue.fn,
        channel: queue.channel,
        nextDueSql: queue.nextDueSql,
        drain: () => callDrain(apiUrl, secrets.serviceRoleKey, queue.fn),
      });
      queueWebhooks.push(webhook);
      startedParts.push(() => webhook.stop());
    }
  } catch (error) {
    for (const stop of startedParts.reverse()) await stop();
    await abandonStart();
    throw error;
  }

  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    anonKey: secrets.anonKey,
    serviceRoleKey: secrets.serviceRoleKey,
    jwtSecret: secrets.jwtSecret,
    webhookSecret: secrets.webhookSecret,
    tatumApiKey: secrets.tatumApiKey,
    emailUnsubscribeSecret: secrets.emailUnsubscribeSecret,
    tatumApiUrl,
    pg,
    mailbox,
    functions: {
      runtime: options.functions ?? 'deno',
      urls: Object.fromEntries(denoFunctions.map((fn) => [fn.name, fn.url])),
    },
    realtimeSockets: () => realtime.connectionCount(),
    close: () => {
      closing ??= (async () => {
        await Promise.all(queueWebhooks.map((webhook) => webhook.stop()));
        await tatum?.close();
        await Promise.all(denoFunctions.map((fn) => fn.stop()));
        await realtime.close();
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
        await feed.stop();
        await keepingExitCode(() => connection.close());
      })();
      return closing;
    },
  };
}

/**
 * The market's pair, subscribed to market-bots as a hosted project subscribes it by hand
 * (docs/deploy.md): on every start, so the first creates it and a later one on another port moves
 * it. The watcher starts at the chain's head on the first start, so the seed liquidity the chain
 * deployed is never delivered.
 */
async function subscribeMarket(
  tatum: TatumEmulator,
  rpcUrl: string,
  router: string,
  tokenAddress: string,
  apiUrl: string,
): Promise<void> {
  const pair = await marketPair(createRpcClient(rpcUrl), router, tokenAddress)();
  if (pair === null) {
    console.warn(`[gateway] the router ${router} has no DDEX/WETH pair yet: no bot will run`);
    return;
  }
  await tatum.ensureSubscription({
    type: 'ADDRESS_EVENT',
    chain: 'ETH',
    address: pair,
    url: `${apiUrl}/functions/v1/market-bots`,
  });
}

function smtpDriver(settings: SmtpSettings): EmailDriver {
  return new SmtpEmailDriver({
    host: settings.host,
    port: settings.port,
    from: settings.from,
    ...(settings.user && settings.pass ? { user: settings.user, pass: settings.pass } : {}),
  });
}

/** The SMTP settings as the functions read them (config.toml's [auth.email.smtp] fields). */
function smtpEnv(settings: SmtpSettings): Record<string, string> {
  return {
    SMTP_HOST: settings.host,
    SMTP_PORT: String(settings.port),
    ...(settings.user && settings.pass ? { SMTP_USER: settings.user, SMTP_PASS: settings.pass } : {}),
    SMTP_ADMIN_EMAIL: settings.from.address,
    SMTP_SENDER_NAME: settings.from.name,
  };
}

/**
 * The queues a function drains, whose Database Webhook and scheduled retry the gateway plays
 * (queue-webhook.ts): when each next has a row due, a retry or the end of a claim's lease.
 */
const QUEUES = [
  {
    fn: 'watch-wallets',
    channel: 'wallet_watch_jobs',
    nextDueSql: `select (extract(epoch from min(greatest(next_attempt_at, coalesce(claimed_until, next_attempt_at)))
                          - now()) * 1000)::float8 as ms
                   from public.wallet_watch_jobs`,
  },
  {
    fn: 'email-alerts',
    channel: 'email_outbox',
    nextDueSql: `select (extract(epoch from min(greatest(next_attempt_at, coalesce(claimed_until, next_attempt_at)))
                          - now()) * 1000)::float8 as ms
                   from public.email_outbox
                  where sent_at is null and discarded_at is null`,
  },
] as const;

/**
 * Past a function's own budget (DRAIN_BUDGET_MS, 20 s) and the Tatum call or the send (email-alerts'
 * SEND_DEADLINE_MS, 60 s) it may be in when the budget ends, so a drain still working is not
 * given up for another.
 */
const DRAIN_TIMEOUT_MS = 90_000;

/**
 * One call of a queue's function as a hosted project's Database Webhook makes it: a POST to the
 * function's URL with the service role key (docs/deploy.md#3-tatum, #email-alerts).
 */
async function callDrain(apiUrl: string, serviceRoleKey: string, fn: string): Promise<void> {
  const answer = await fetch(`${apiUrl}/functions/v1/${fn}`, {
    method: 'POST',
    headers: {
      apikey: serviceRoleKey,
      authorization: `Bearer ${serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: '{}',
    signal: AbortSignal.timeout(DRAIN_TIMEOUT_MS),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${fn} answered ${answer.status}: ${text}`);
}

/** The path with every valid run of percent-escapes decoded as decodeURI would, as Hono routes it. */
export function routingPath(pathname: string): string {
  return pathname.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURI(run);
    } catch {
      return run;
    }
  });
}

function notServed(path: string): Response {
  return json(404, {
    statusCode: 404,
    errorCode: 'emulator.not.running',
    message: `${path}: the Tatum emulator runs only when the stack has a chain (npm run stack)`,
  });
}

const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

function listen(
  port: number,
  timeouts: { headersMs: number; requestMs: number },
  fetch: (request: Request, peerAddress: string | null) => Promise<Response>,
): Promise<Server> {
  return new Promise((resolveServer, reject) => {
    const server = serve(
      {
        port,
        hostname: '127.0.0.1',
        // Node answers 408 and closes a connection past either; it looks every interval.
        serverOptions: {
          headersTimeout: timeouts.headersMs,
          requestTimeout: Math.max(timeouts.requestMs, timeouts.headersMs),
          connectionsCheckingInterval: Math.min(1000, Math.max(50, timeouts.headersMs / 4)),
        },
        fetch: async (request, env: { incoming?: { socket?: { remoteAddress?: string } } }) => {
          try {
            return await fetch(request, env.incoming?.socket?.remoteAddress ?? null);
          } catch (error) {
            console.error(`[gateway] ${request.method} ${new URL(request.url).pathname} failed:`, error);
            return json(500, {
              code: 'internal_error',
              message: 'The local gateway failed to handle this request; see its log.',
            });
          }
        },
      },
      () => resolveServer(server as Server),
    ) as Server;
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} is in use; stop what holds it or set STACK_GATEWAY_PORT to a free port.`)
          : error,
      );
    });
  });
}
