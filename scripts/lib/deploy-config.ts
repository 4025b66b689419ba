import { readAppConfig, type RawEnv } from '../../src/config/app-config.ts';
import { isAddress, isZeroAddress } from '../../stack/address.ts';
import { LOCAL_CHAIN_ID } from '../../stack/chain/hardhat.ts';
import { forbiddenBuildKeys } from './build-env.ts';

// What `npm run deploy:check` asks of a hosted configuration, key by key, before
// anything is deployed: the app's VITE_* keys (built into the bundle) and the
// Edge Functions' secrets (`supabase secrets set`), as docs/deploy.md lists
// them. Only the values' form is checked: nothing here contacts a hosted service.

export type Problem = { key: string; message: string };

function httpsUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

const isLocal = (url: URL) => ['127.0.0.1', 'localhost', '[::1]', '0.0.0.0'].includes(url.hostname);

/** The claims of a JWT, or null when the text is no JWT. */
function jwtClaims(token: string): Record<string, unknown> | null {
  const [, payload] = token.split('.');
  if (token.split('.').length !== 3 || !payload) return null;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export function checkAppKeys(env: RawEnv): Problem[] {
  const problems: Problem[] = [];
  const value = (key: string) => env[key]?.trim() ?? '';
  const need = (key: string, what: string) => {
    if (value(key) === '') problems.push({ key, message: `is not set (${what})` });
    return value(key);
  };
  const hostedUrl = (key: string, what: string, required: boolean) => {
    const text = required ? need(key, what) : value(key);
    if (text === '') return;
    const url = httpsUrl(text);
    if (!url) problems.push({ key, message: `is not an https:// URL: "${text}"` });
    else if (isLocal(url))
      problems.push({ key, message: `points at this machine (${url.host}), not a hosted service` });
  };

  hostedUrl('VITE_SUPABASE_URL', "the project's API URL, https://<project-ref>.supabase.co", true);
  const anonKey = need('VITE_SUPABASE_ANON_KEY', "the project's anon (publishable) key");
  if (anonKey !== '') {
    const claims = jwtClaims(anonKey);
    // The key ships in the bundle: a secret or service_role key there would give every visitor the database.
    if (anonKey.startsWith('sb_secret_') || claims?.['role'] === 'service_role') {
      problems.push({
        key: 'VITE_SUPABASE_ANON_KEY',
        message: 'is a secret (service role) key: never build one into the app',
      });
    } else if (!anonKey.startsWith('sb_publishable_') && claims?.['role'] !== 'anon') {
      problems.push({
        key: 'VITE_SUPABASE_ANON_KEY',
        message: 'is neither a publishable key (sb_publishable_…) nor an anon JWT',
      });
    }
  }
  // Unset, the app is built for Sepolia (src/config/app-config.ts); set, it must be a chain id.
  const chainId = value('VITE_CHAIN_ID');
  if (chainId !== '' && !/^[1-9]\d*$/.test(chainId)) {
    problems.push({ key: 'VITE_CHAIN_ID', message: `is not a chain id: "${chainId}"` });
  } else if (chainId === String(LOCAL_CHAIN_ID)) {
    // A build for the local chain carries the local test wallet (src/config/local-wallet-build.ts),
    // whose key lives in the browser's storage: never a hosted portal's.
    problems.push({
      key: 'VITE_CHAIN_ID',
      message:
        'is the local chain (31337), whose build offers the local test wallet: build for Sepolia or another public chain',
    });
  }
  hostedUrl('VITE_RPC_URL', 'an RPC URL of that chain', true);
  const token = need('VITE_DDEX_TOKEN_ADDRESS', 'the DDEX contract address (docs/deploy.md step 2)');
  if (token !== '' && (!isAddress(token) || isZeroAddress(token))) {
    problems.push({ key: 'VITE_DDEX_TOKEN_ADDRESS', message: `is not a contract address: "${token}"` });
  }
  const router = need(
    'VITE_UNISWAP_V2_ROUTER',
    'the Uniswap V2 router the Trading tab swaps through (docs/deploy.md)',
  );
  if (router !== '' && (!isAddress(router) || isZeroAddress(router))) {
    problems.push({ key: 'VITE_UNISWAP_V2_ROUTER', message: `is not a contract address: "${router}"` });
  } else if (router !== '' && router.toLowerCase() === token.toLowerCase()) {
    problems.push({ key: 'VITE_UNISWAP_V2_ROUTER', message: 'is the DDEX contract, not the router' });
  }
  hostedUrl('VITE_BLOCK_EXPLORER_URL', '', false);
  hostedUrl('VITE_PRODUCT_SITE', '', false);
  // What the build refuses (build-env.ts): Tatum's key belongs to the functions.
  for (const key of forbiddenBuildKeys(env)) {
    problems.push({
      key,
      message:
        'is set: the build refuses it, as a VITE_ value ships in the bundle; Tatum is reached through the functions (TATUM_API_KEY)',
    });
  }
  // The app's own reading of the same keys (what the bundle will do with them).
  for (const line of readAppConfig(env).problems) {
    const key = /^(VITE_[A-Z_]+)/.exec(line)?.[1] ?? 'app';
    if (!problems.some((problem) => problem.key === key)) {
      problems.push({ key, message: line.slice(key.length).trim() });
    }
  }
  return problems;
}

export function checkFunctionSecrets(secrets: RawEnv, app: RawEnv): Problem[] {
  const problems: Problem[] = [];
  const value = (key: string) => secrets[key]?.trim() ?? '';
  for (const key of Object.keys(secrets)) {
    // The platform sets these itself, and `supabase secrets set` refuses names that start so.
    if (key.startsWith('SUPABASE_')) {
      problems.push({ key, message: 'is provided by the platform: remove it from the functions’ secrets' });
    }
  }
  const secret = value('TATUM_WEBHOOK_SECRET');
  if (secret === '') {
    problems.push({
      key: 'TATUM_WEBHOOK_SECRET',
      message: 'is not set (the HMAC secret Tatum signs deliveries with)',
    });
  } else if (secret.length < 16) {
    problems.push({
      key: 'TATUM_WEBHOOK_SECRET',
      message: 'is shorter than 16 characters: anyone could guess it',
    });
  }
  const token = value('DDEX_TOKEN_ADDRESS');
  if (token === '') {
    problems.push({ key: 'DDEX_TOKEN_ADDRESS', message: 'is not set (record-transaction refuses to start)' });
  } else if (!isAddress(token) || isZeroAddress(token)) {
    problems.push({ key: 'DDEX_TOKEN_ADDRESS', message: `is not a contract address: "${token}"` });
  } else {
    const built = app['VITE_DDEX_TOKEN_ADDRESS']?.trim() ?? '';
    if (isAddress(built) && built.toLowerCase() !== token.toLowerCase()) {
      problems.push({
        key: 'DDEX_TOKEN_ADDRESS',
        message: `differs from VITE_DDEX_TOKEN_ADDRESS (${built})`,
      });
    }
  }
  const rpc = value('RPC_URL');
  if (rpc === '') {
    problems.push({
      key: 'RPC_URL',
      message: 'is not set (process-payments, record-transaction and market-bots read receipts from it)',
    });
  } else {
    const url = httpsUrl(rpc);
    if (!url) problems.push({ key: 'RPC_URL', message: `is not an https:// URL: "${rpc}"` });
    else if (isLocal(url)) problems.push({ key: 'RPC_URL', message: `points at this machine (${url.host})` });
  }
  // market-bots finds the pair it evaluates from the router, and refuses to start without one.
  const router = value('UNISWAP_V2_ROUTER');
  const builtRouter = app['VITE_UNISWAP_V2_ROUTER']?.trim() ?? '';
  if (router === '') {
    problems.push({ key: 'UNISWAP_V2_ROUTER', message: 'is not set (market-bots refuses to start)' });
  } else if (!isAddress(router) || isZeroAddress(router)) {
    problems.push({ key: 'UNISWAP_V2_ROUTER', message: `is not a contract address: "${router}"` });
  } else if (router.toLowerCase() === token.toLowerCase()) {
    problems.push({ key: 'UNISWAP_V2_ROUTER', message: 'is the DDEX contract, not the router' });
  } else if (isAddress(builtRouter) && builtRouter.toLowerCase() !== router.toLowerCase()) {
    problems.push({
      key: 'UNISWAP_V2_ROUTER',
      message: `differs from VITE_UNISWAP_V2_ROUTER (${builtRouter}): the bots would watch another market`,
    });
  }
  // link-wallet accepts a proof only for this chain and this site (docs/deploy.md#wallet-proof).
  const chainId = value('CHAIN_ID');
  const builtChain = app['VITE_CHAIN_ID']?.trim() ?? '';
  if (chainId === '') {
    problems.push({ key: 'CHAIN_ID', message: 'is not set (link-wallet refuses to start)' });
  } else if (!/^[1-9]\d*$/.test(chainId)) {
    problems.push({ key: 'CHAIN_ID', message: `is not a chain id: "${chainId}"` });
  } else if (/^[1-9]\d*$/.test(builtChain) && builtChain !== chainId) {
    problems.push({ key: 'CHAIN_ID', message: `differs from VITE_CHAIN_ID (${builtChain})` });
  }
  const site = value('SITE_URL');
  if (site === '') {
    problems.push({ key: 'SITE_URL', message: 'is not set (the portal origin whose wallet proofs count)' });
  }
  for (const origin of site === '' ? [] : site.split(',').map((part) => part.trim())) {
    const url = httpsUrl(origin);
    if (!url) problems.push({ key: 'SITE_URL', message: `is not an https:// URL: "${origin}"` });
    else if (isLocal(url)) problems.push({ key: 'SITE_URL', message: `points at this machine (${origin})` });
  }
  // process-payments records deliveries of this network only, and answers others 200 unrecorded:
  // Tatum does not send them again, so a wrong name would lose every transfer.
  const network = value('TATUM_CHAIN');
  const expected = TATUM_NETWORKS[builtChain];
  if (network === '') {
    problems.push({ key: 'TATUM_CHAIN', message: 'is not set (process-payments refuses to start)' });
  } else if (expected && network !== expected) {
    const named = Object.entries(TATUM_NETWORKS).find(([, name]) => name === network)?.[0];
    problems.push({
      key: 'TATUM_CHAIN',
      message: named
        ? `is Tatum's name of chain ${named}, not of ${builtChain} (${expected})`
        : `is not Tatum's name of chain ${builtChain} (${expected})`,
    });
  }
  return problems;
}

/** Tatum's names (the `chain` of its v4 webhook bodies) of the EVM chains the portal may run on. */
const TATUM_NETWORKS: Record<string, string> = {
  '1': 'ethereum-mainnet',
  '11155111': 'ethereum-sepolia',
  '17000': 'ethereum-holesky',
};

/** Reads KEY=value lines (comments, blank lines, optional quotes), as `supabase secrets set --env-file` does. */
export function parseEnvFile(text: string): RawEnv {
  const env: RawEnv = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match?.[1]) continue;
    const value = (match[2] ?? '').trim();
    const quoted = /^(['"])(.*)\1$/.exec(value);
    // Unquoted, a ` #` starts a comment, as in the CLI's env-file reader.
    env[match[1]] = quoted ? (quoted[2] ?? '') : value.replace(/\s+#.*$/, '');
  }
  return env;
}
