import type { Chain } from './chain/index.ts';
import type { Gateway } from './gateway/index.ts';

/**
 * The `VITE_*` values that point a build of the portal (or `vite`'s dev server) at this stack: its
 * gateway and its chain, with the DDEX contract and the Uniswap router deployed there.
 */
export function appEnvFor(gateway: Gateway, chain: Chain): Record<string, string> {
  return {
    VITE_SUPABASE_URL: gateway.url,
    VITE_SUPABASE_ANON_KEY: gateway.anonKey,
    VITE_RPC_URL: chain.rpcUrl,
    VITE_CHAIN_ID: String(chain.chainId),
    VITE_DDEX_TOKEN_ADDRESS: chain.tokenAddress,
    VITE_UNISWAP_V2_ROUTER: chain.uniswap.router,
  };
}
