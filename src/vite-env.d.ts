/// <reference types="vite/client" />

// The keys src/config/build-env.ts reads; no other VITE_* value reaches the bundle.
interface ImportMetaEnv {
  readonly VITE_SUPABASE_URL?: string;
  readonly VITE_SUPABASE_ANON_KEY?: string;
  readonly VITE_CHAIN_ID?: string;
  readonly VITE_RPC_URL?: string;
  readonly VITE_DDEX_TOKEN_ADDRESS?: string;
  readonly VITE_UNISWAP_V2_ROUTER?: string;
  readonly VITE_BLOCK_EXPLORER_URL?: string;
  readonly VITE_CONTACT_EMAIL?: string;
  readonly VITE_PRODUCT_SITE?: string;
  readonly VITE_HCAPTCHA_SITEKEY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
