import { isAddress, isZeroAddress } from '../domain/wallet.ts';

// The portal's configuration, read once from Vite's environment. Nothing here
// throws: a missing or malformed value becomes "not configured" plus a
// problem the app can show, so a bad .env degrades the portal (the spec's
// 'Supabase client not available' and 'N/A (Config Error)' paths) instead of
// breaking it.

export type ChainConfig = { id: number; name: string };

export type AppConfig = {
  supabase: { url: string; anonKey: string } | null;
  chain: ChainConfig;
  rpcUrl: string | null;
  /** null when unset or the placeholder: the spec's demo behaviour. */
  tokenAddress: `0x${string}` | null;
  /** The Uniswap V2 router the Trading tab swaps through; null when unset (no market). */
  uniswapRouter: `0x${string}` | null;
  contactEmail: string;
  productSite: string;
  /** Base of transaction links, e.g. https://sepolia.etherscan.io (a hash is appended as /tx/<hash>). */
  explorerUrl: string | null;
  /** hCaptcha's site key for the faucet's human check (public); null when unset (a local build has a stand-in). */
  hcaptchaSitekey: string | null;
  /** One line per malformed value, naming the key. */
  problems: string[];
};

export type RawEnv = Record<string, string | undefined>;

const SEPOLIA: ChainConfig = { id: 11155111, name: 'Sepolia' };
const CHAIN_NAMES: Record<number, string> = {
  1: 'Ethereum',
  11155111: 'Sepolia',
  17000: 'Holesky',
  31337: 'Hardhat (local)',
};
const DEFAULT_CONTACT = 'support@example.com';
const DEFAULT_SITE = 'https://example.com';

export function readAppConfig(env: RawEnv): AppConfig {
  const problems: string[] = [];
  const text = (key: string): string | null => {
    const value = env[key]?.trim();
    return value ? value : null;
  };
  const httpUrl = (key: string): string | null => {
    const value = text(key);
    if (value === null) return null;
    if (isHttpUrl(value)) return value;
    problems.push(`${key} is not an http(s) URL: "${value}"`);
    return null;
  };

  const supabaseUrl = httpUrl('VITE_SUPABASE_URL');
  const anonKey = text('VITE_SUPABASE_ANON_KEY');
  if (supabaseUrl && !anonKey) problems.push('VITE_SUPABASE_ANON_KEY is not set');

  let chain = SEPOLIA;
  const chainText = text('VITE_CHAIN_ID');
  if (chainText !== null) {
    const id = Number(chainText);
    if (Number.isSafeInteger(id) && id > 0) chain = { id, name: CHAIN_NAMES[id] ?? `chain ${id}` };
    else problems.push(`VITE_CHAIN_ID is not a chain id: "${chainText}"`);
  }

  /** A contract address; unset, the placeholder or the zero address is null without complaint. */
  const contract = (key: string): `0x${string}` | null => {
    const value = text(key);
    if (value === null || isZeroAddress(value)) return null;
    if (isAddress(value)) return value;
    if (!/^YOUR_|placeholder/i.test(value)) problems.push(`${key} is not an address: "${value}"`);
    return null;
  };
  const tokenAddress = contract('VITE_DDEX_TOKEN_ADDRESS');
  const uniswapRouter = contract('VITE_UNISWAP_V2_ROUTER');

  let contactEmail = text('VITE_CONTACT_EMAIL') ?? DEFAULT_CONTACT;
  if (!/^[^\s@]+@[^\s@]+$/.test(contactEmail)) {
    problems.push(`VITE_CONTACT_EMAIL is not an email address: "${contactEmail}"`);
    contactEmail = DEFAULT_CONTACT;
  }

  return {
    supabase: supabaseUrl && anonKey ? { url: supabaseUrl, anonKey } : null,
    chain,
    rpcUrl: httpUrl('VITE_RPC_URL'),
    tokenAddress,
    uniswapRouter,
    contactEmail,
    productSite: httpUrl('VITE_PRODUCT_SITE') ?? DEFAULT_SITE,
    explorerUrl: httpUrl('VITE_BLOCK_EXPLORER_URL')?.replace(/\/+$/, '') ?? null,
    hcaptchaSitekey: text('VITE_HCAPTCHA_SITEKEY'),
    problems,
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
