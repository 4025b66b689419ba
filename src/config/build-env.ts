import type { RawEnv } from './app-config.ts';

// The VITE_* values the portal reads, each named on its own: Vite writes into the bundle only the
// `import.meta.env.<KEY>` it finds, so these and nothing else ship. Handing the app
// `import.meta.env` whole would ship every VITE_* value the build saw, a key left over in a .env
// included (tests/e2e/bundle-secrets.e2e.test.ts).

export function buildEnv(): RawEnv {
  return {
    VITE_SUPABASE_URL: import.meta.env.VITE_SUPABASE_URL,
    VITE_SUPABASE_ANON_KEY: import.meta.env.VITE_SUPABASE_ANON_KEY,
    VITE_CHAIN_ID: import.meta.env.VITE_CHAIN_ID,
    VITE_RPC_URL: import.meta.env.VITE_RPC_URL,
    VITE_DDEX_TOKEN_ADDRESS: import.meta.env.VITE_DDEX_TOKEN_ADDRESS,
    VITE_UNISWAP_V2_ROUTER: import.meta.env.VITE_UNISWAP_V2_ROUTER,
    VITE_BLOCK_EXPLORER_URL: import.meta.env.VITE_BLOCK_EXPLORER_URL,
    VITE_CONTACT_EMAIL: import.meta.env.VITE_CONTACT_EMAIL,
    VITE_PRODUCT_SITE: import.meta.env.VITE_PRODUCT_SITE,
    VITE_HCAPTCHA_SITEKEY: import.meta.env.VITE_HCAPTCHA_SITEKEY,
  };
}
