import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildPortal, holdPort, type HeldPort } from '../../../scripts/lib/portal-build.ts';
import { startChain } from '../../../stack/chain/index.ts';
import { LOCAL_MAIL_FROM, startGateway, type Gateway } from '../../../stack/gateway/index.ts';
import { startMailbox } from '../../../stack/mail/mailbox.ts';
import { settleExitCode } from '../exit-code.ts';
import { hashPasswordsCheaply } from '../password-hashing.ts';
import { TEST_AUTH_RATE_LIMIT } from '../stack/auth-limit.ts';
import { chromiumPath, chromiumProblem } from './chromium.ts';
import type { AppVariant, E2eApp, E2eContext, E2eGateway, GatewayName } from './context.ts';

// The e2e layer's stack, started once for all e2e files: a chain with DDEX, a
// gateway on it (confirmations off), a second gateway on the same chain with
// confirmations on, both mailing the one local mailbox over SMTP, and the portal built with `vite build` per variant and
// served by `vite preview` on ports held from the start (the gateways need
// the apps' origins first). Everything listens on 127.0.0.1 on free ports,
// with empty data in a temporary folder removed at the end.

export default async function setup(project: TestProject) {
  hashPasswordsCheaply();
  const startedAt = performance.now();
  const browser = chromiumPath();
  const problem = chromiumProblem(browser);
  if (problem) throw new Error(problem);

  const tempDir = mkdtempSync(join(tmpdir(), 'ddex-e2e-'));
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(tempDir, { recursive: true, force: true })];
  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.error('[e2e] teardown step failed:', error);
      }
    }
    settleExitCode(project);
  };

  try {
    // The apps' origins are fixed before the gateways start: a gateway redirects
    // its emailed links only to its site URL.
    const appPorts: Record<AppVariant, HeldPort> = {
      full: await holdPort(),
      noToken: await holdPort(),
      confirmEmail: await holdPort(),
    };
    for (const held of Object.values(appPorts)) cleanups.push(() => held.close());
    const appUrl = (variant: AppVariant) => appPorts[variant].url;

    const chainDir = join(tempDir, 'chain');
    const chain = await startChain({ port: 0, dataDir: chainDir });
    cleanups.push(() => chain.close());

    const mailbox = await startMailbox({ smtpPort: 0, webPort: 0 });
    cleanups.push(() => mailbox.stop());

    const startOne = async (name: GatewayName, siteUrl: string, emailConfirmations: boolean) => {
      const gateway = await startGateway({
        port: 0,
        dataDir: join(tempDir, `gateway-${name}`),
        smtp: { ...mailbox.smtp, from: LOCAL_MAIL_FROM },
        emailConfirmations,
        siteUrl,
        tokenAddress: chain.tokenAddress,
        rpcUrl: chain.rpcUrl,
        uniswapRouter: chain.uniswap.router,
        chainId: chain.chainId,
        // Every browser of the run is 127.0.0.1 to native-balance: one client, many tests.
        balanceRateLimit: '1000/60',
        authRateLimit: TEST_AUTH_RATE_LIMIT,
        faucetPrivateKey: chain.faucet.privateKey,
      });
      cleanups.push(() => gateway.close());
      return gateway;
    };
    const mainGateway = await startOne('main', appUrl('full'), false);
    const confirmGateway = await startOne('confirmEmail', appUrl('confirmEmail'), true);

    const gateways: Record<GatewayName, E2eGateway> = {
      main: describeGateway(mainGateway, false, mailbox.url),
      confirmEmail: describeGateway(confirmGateway, true, mailbox.url),
    };

    // `noToken` is the less configured build: no DDEX contract, no market and no block explorer either.
    const envFor = (gateway: E2eGateway, complete: boolean): Record<string, string> => ({
      VITE_SUPABASE_URL: gateway.url,
      VITE_SUPABASE_ANON_KEY: gateway.anonKey,
      VITE_RPC_URL: chain.rpcUrl,
      VITE_CHAIN_ID: String(chain.chainId),
      ...(complete
        ? {
            VITE_DDEX_TOKEN_ADDRESS: chain.tokenAddress,
            VITE_UNISWAP_V2_ROUTER: chain.uniswap.router,
            VITE_BLOCK_EXPLORER_URL: 'https://explorer.ddex.example',
          }
        : {}),
      // .example names never resolve, and the browser resolves nothing but 127.0.0.1 anyway.
      VITE_CONTACT_EMAIL: 'contact@ddex.example',
      VITE_PRODUCT_SITE: 'https://ddex.example',
    });
    // A VITE_ value the portal does not read, as a key left over in a .env: no build may carry it.
    const unreadValue = `unread-${randomUUID()}`;
    const plan: Record<AppVariant, { gateway: GatewayName; env: Record<string, string> }> = {
      full: { gateway: 'main', env: { ...envFor(gateways.main, true), VITE_LEFT_OVER: unreadValue } },
      noToken: { gateway: 'main', env: envFor(gateways.main, false) },
      confirmEmail: { gateway: 'confirmEmail', env: envFor(gateways.confirmEmail, true) },
    };

    const builtAt = performance.now();
    const variants = Object.keys(plan) as AppVariant[];
    const outDir = (variant: AppVariant) => join(tempDir, 'apps', variant);
    // One at a time: each build reads the VITE_* keys from process.env.
    const buildAll = async () => {
      for (const variant of variants) await buildPortal(outDir(variant), plan[variant].env);
    };
    await buildAll();
    const apps = {} as Record<AppVariant, E2eApp>;
    for (const variant of variants) {
      await appPorts[variant].serve(outDir(variant));
      apps[variant] = { url: appUrl(variant), ...plan[variant] };
    }
    // In watch mode the apps are built again before each rerun (preview serves the new files).
    project.onTestsRerun(buildAll);

    const locksDir = join(tempDir, 'locks');
    mkdirSync(locksDir);
    const context: E2eContext = {
      chromiumPath: browser,
      apps,
      gateways,
      chain: {
        rpcUrl: chain.rpcUrl,
        chainId: chain.chainId,
        tokenAddress: chain.tokenAddress,
        uniswap: chain.uniswap,
        accounts: chain.accounts,
      },
      locksDir,
    };
    project.provide('e2e', context);
    // What tests/e2e/bundle-secrets.e2e.test.ts searches the builds for, and where they are.
    project.provide('bundleScan', {
      appDirs: variants.map(outDir),
      tatumApiKeys: [mainGateway.tatumApiKey, confirmGateway.tatumApiKey],
      unreadValues: [unreadValue],
    });
    if (process.env['E2E_TIMINGS'] === '1') {
      const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);
      console.warn(`[e2e] stack and apps ready in ${seconds(startedAt)} s (builds ${seconds(builtAt)} s)`);
    }
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

function describeGateway(gateway: Gateway, emailConfirmations: boolean, mailboxUrl: string): E2eGateway {
  if (!gateway.tatumApiUrl) throw new Error('the gateway started without its Tatum emulator');
  return {
    url: gateway.url,
    anonKey: gateway.anonKey,
    serviceRoleKey: gateway.serviceRoleKey,
    webhookSecret: gateway.webhookSecret,
    tatumApiUrl: gateway.tatumApiUrl,
    emailConfirmations,
    mailboxUrl,
    emailUnsubscribeSecret: gateway.emailUnsubscribeSecret,
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    bundleScan: { appDirs: string[]; tatumApiKeys: string[]; unreadValues: string[] };
  }
}
