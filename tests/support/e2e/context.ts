import { inject } from 'vitest';
import type { ChainAccount } from '../../../stack/chain/index.ts';
import type { UniswapDeployment } from '../../../stack/chain/uniswap.ts';

// What the e2e global setup (global-setup.ts) hands every e2e test file
// through `inject('e2e')`: the built portal per variant, the gateways behind
// them and the chain. Everything listens on 127.0.0.1 on ports picked at start.

/**
 * The builds of the portal the tests open:
 * - `full`: every VITE_* key set (Supabase, chain, DDEX contract, Uniswap V2 router, explorer, footer);
 * - `noToken`: the same without VITE_DDEX_TOKEN_ADDRESS and VITE_UNISWAP_V2_ROUTER (the spec's
 *   'Configuration Error' paths);
 * - `confirmEmail`: `full` against a second gateway whose sign-up waits for the emailed link.
 */
export type AppVariant = 'full' | 'noToken' | 'confirmEmail';
export type GatewayName = 'main' | 'confirmEmail';

export type E2eGateway = {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  webhookSecret: string;
  tatumApiUrl: string;
  emailConfirmations: boolean;
  /** The local mailbox both gateways mail over SMTP: its page, and its REST API under /api (mailbox.ts). */
  mailboxUrl: string;
  /** What signs an email alert's unsubscribe link (the functions' EMAIL_UNSUBSCRIBE_SECRET). */
  emailUnsubscribeSecret: string;
};

export type E2eApp = {
  /** Origin of the built app, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  gateway: GatewayName;
  /** The VITE_* values the variant was built with (nothing else reached the build). */
  env: Record<string, string>;
};

export type E2eContext = {
  chromiumPath: string;
  apps: Record<AppVariant, E2eApp>;
  gateways: Record<GatewayName, E2eGateway>;
  chain: {
    rpcUrl: string;
    chainId: number;
    tokenAddress: `0x${string}`;
    /** The DDEX/WETH market the stack deployed (router, factory, WETH, pair). */
    uniswap: UniswapDeployment;
    accounts: ChainAccount[];
  };
  /** A folder of the run's own, for the files' turns at a shared resource (pool-lock.ts). */
  locksDir: string;
};

export function e2e(): E2eContext {
  return inject('e2e');
}

export function gatewayFor(variant: AppVariant): E2eGateway {
  const context = e2e();
  return context.gateways[context.apps[variant].gateway];
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2eContext;
  }
}
