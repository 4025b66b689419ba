import { describe, expect, it } from 'vitest';
import { checkAppKeys, checkFunctionSecrets, parseEnvFile } from '../../scripts/lib/deploy-config.ts';

// deploy:check's reading of a hosted configuration, key by key.

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
// Uniswap's own V2 router on Sepolia.
const ROUTER = '0xeE567Fe1712Faf6149d80dA1E6934E354124CfE3';
const APP = {
  VITE_SUPABASE_URL: 'https://abcdefghijklmnop.supabase.co',
  VITE_SUPABASE_ANON_KEY: 'sb_publishable_0123456789',
  VITE_CHAIN_ID: '11155111',
  VITE_RPC_URL: 'https://sepolia.example.org/rpc',
  VITE_DDEX_TOKEN_ADDRESS: TOKEN,
  VITE_UNISWAP_V2_ROUTER: ROUTER,
};
const SECRETS = {
  TATUM_WEBHOOK_SECRET: 'a-long-random-hmac-secret',
  DDEX_TOKEN_ADDRESS: TOKEN.toLowerCase(),
  RPC_URL: 'https://sepolia.example.org/rpc',
  UNISWAP_V2_ROUTER: ROUTER,
  CHAIN_ID: '11155111',
  SITE_URL: 'https://portal.example.org',
  TATUM_CHAIN: 'ethereum-sepolia',
};
const jwt = (claims: object) =>
  ['{"alg":"HS256","typ":"JWT"}', JSON.stringify(claims)]
    .map((part) => Buffer.from(part).toString('base64url'))
    .concat('signature')
    .join('.');
const keysOf = (problems: { key: string }[]) => problems.map((problem) => problem.key);

describe('deploy:check, the app keys', () => {
  it('passes a complete hosted configuration', () => {
    expect(checkAppKeys(APP)).toEqual([]);
    expect(checkAppKeys({ ...APP, VITE_SUPABASE_ANON_KEY: jwt({ role: 'anon' }) })).toEqual([]);
  });

  it('names every missing key', () => {
    expect(keysOf(checkAppKeys({}))).toEqual([
      'VITE_SUPABASE_URL',
      'VITE_SUPABASE_ANON_KEY',
      'VITE_RPC_URL',
      'VITE_DDEX_TOKEN_ADDRESS',
      'VITE_UNISWAP_V2_ROUTER',
    ]);
  });

  it.each([
    ['VITE_SUPABASE_URL', 'http://abc.supabase.co', /https:\/\/ URL/],
    ['VITE_SUPABASE_URL', 'http://127.0.0.1:54321', /https:\/\/ URL/],
    ['VITE_SUPABASE_URL', 'https://localhost:54321', /points at this machine/],
    ['VITE_SUPABASE_ANON_KEY', 'sb_secret_0123', /secret \(service role\) key/],
    ['VITE_SUPABASE_ANON_KEY', jwt({ role: 'service_role' }), /secret \(service role\) key/],
    ['VITE_SUPABASE_ANON_KEY', 'hello', /neither a publishable key/],
    ['VITE_CHAIN_ID', 'sepolia', /not a chain id/],
    ['VITE_RPC_URL', 'wss://sepolia.example.org', /https:\/\/ URL/],
    ['VITE_DDEX_TOKEN_ADDRESS', '0x1234', /not a contract address/],
    ['VITE_DDEX_TOKEN_ADDRESS', `0x${'0'.repeat(40)}`, /not a contract address/],
    ['VITE_UNISWAP_V2_ROUTER', '0xeE567Fe1712Faf6149d80dA1E6934E354124CfE', /not a contract address/],
    ['VITE_UNISWAP_V2_ROUTER', `0x${'0'.repeat(40)}`, /not a contract address/],
    ['VITE_UNISWAP_V2_ROUTER', TOKEN.toLowerCase(), /is the DDEX contract/],
    ['VITE_BLOCK_EXPLORER_URL', 'sepolia.etherscan.io', /https:\/\/ URL/],
  ])('refuses %s = %s', (key, value, message) => {
    const problems = checkAppKeys({ ...APP, [key]: value });
    expect(keysOf(problems)).toContain(key);
    expect(problems.find((problem) => problem.key === key)?.message).toMatch(message);
  });
  it('refuses the local chain, whose build carries the local test wallet', () => {
    const problems = checkAppKeys({ ...APP, VITE_CHAIN_ID: '31337' });
    expect(problems).toEqual([
      { key: 'VITE_CHAIN_ID', message: expect.stringMatching(/local chain.*local test wallet/) },
    ]);
  });

  it('refuses a VITE_TATUM_ value, which the build would refuse too', () => {
    const problems = checkAppKeys({ ...APP, VITE_TATUM_API_KEY: 't-key', VITE_TATUM_API_URL: ' ' });
    expect(keysOf(problems)).toEqual(['VITE_TATUM_API_KEY']);
    expect(problems[0]?.message).toMatch(/the build refuses it/);
  });
});

describe('deploy:check, the functions’ secrets', () => {
  it('passes complete secrets that name the token the app is built with', () => {
    expect(checkFunctionSecrets(SECRETS, APP)).toEqual([]);
  });

  it('names every missing secret, and refuses what the platform sets itself', () => {
    expect(keysOf(checkFunctionSecrets({ SUPABASE_URL: 'https://x.supabase.co' }, APP))).toEqual([
      'SUPABASE_URL',
      'TATUM_WEBHOOK_SECRET',
      'DDEX_TOKEN_ADDRESS',
      'RPC_URL',
      'UNISWAP_V2_ROUTER',
      'CHAIN_ID',
      'SITE_URL',
      'TATUM_CHAIN',
    ]);
  });

  it('refuses a Tatum network other than the chain the app is built for', () => {
    const problems = checkFunctionSecrets({ ...SECRETS, TATUM_CHAIN: 'ethereum-mainnet' }, APP);
    expect(problems.map((problem) => `${problem.key} ${problem.message}`)).toEqual([
      expect.stringMatching(/^TATUM_CHAIN is Tatum's name of chain 1, not of 11155111 \(ethereum-sepolia\)/),
    ]);
    expect(checkFunctionSecrets({ ...SECRETS, TATUM_CHAIN: 'ethereum-sepolia' }, APP)).toEqual([]);
  });

  it('refuses a wallet proof chain other than the app’s, and a site that is not the hosted portal', () => {
    const problems = checkFunctionSecrets(
      { ...SECRETS, CHAIN_ID: '1', SITE_URL: 'https://portal.example.org, http://127.0.0.1:5173' },
      APP,
    );
    expect(problems.map((problem) => `${problem.key} ${problem.message}`)).toEqual([
      expect.stringMatching(/^CHAIN_ID differs from VITE_CHAIN_ID/),
      expect.stringMatching(/^SITE_URL .*http:\/\/127\.0\.0\.1:5173/),
    ]);
    expect(keysOf(checkFunctionSecrets({ ...SECRETS, CHAIN_ID: 'sepolia' }, APP))).toEqual(['CHAIN_ID']);
    expect(keysOf(checkFunctionSecrets({ ...SECRETS, SITE_URL: 'portal.example.org' }, APP))).toEqual([
      'SITE_URL',
    ]);
  });

  it('refuses a short webhook secret, another token than the app’s, and a local RPC', () => {
    const problems = checkFunctionSecrets(
      {
        ...SECRETS,
        TATUM_WEBHOOK_SECRET: 'short',
        DDEX_TOKEN_ADDRESS: `0x${'ab'.repeat(20)}`,
        RPC_URL: 'https://127.0.0.1:8545',
      },
      APP,
    );
    expect(problems.map((problem) => `${problem.key} ${problem.message}`)).toEqual([
      expect.stringMatching(/^TATUM_WEBHOOK_SECRET is shorter than 16/),
      expect.stringMatching(/^DDEX_TOKEN_ADDRESS differs from VITE_DDEX_TOKEN_ADDRESS/),
      expect.stringMatching(/^RPC_URL points at this machine/),
    ]);
  });

  it.each([
    ['0x1234', /not a contract address/],
    [`0x${'0'.repeat(40)}`, /not a contract address/],
    [TOKEN, /is the DDEX contract/],
    [`0x${'cd'.repeat(20)}`, /differs from VITE_UNISWAP_V2_ROUTER/],
  ])('refuses the router market-bots watches through: %s', (router, message) => {
    const problems = checkFunctionSecrets({ ...SECRETS, UNISWAP_V2_ROUTER: router }, APP);
    expect(keysOf(problems)).toEqual(['UNISWAP_V2_ROUTER']);
    expect(problems[0]?.message).toMatch(message);
  });

  it('reads an env file as `supabase secrets set --env-file` does', () => {
    const text =
      '# secrets\nTATUM_WEBHOOK_SECRET="abc # def"\n\nexport RPC_URL=https://x # the node\nnot a line\n';
    expect(parseEnvFile(text)).toEqual({ TATUM_WEBHOOK_SECRET: 'abc # def', RPC_URL: 'https://x' });
  });
});
