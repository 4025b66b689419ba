import { describe, expect, it } from 'vitest';
import { readAppConfig } from '../../src/config/app-config.ts';

// A bad .env must degrade the portal, with a message naming the key, never break it.
describe('app configuration', () => {
  it('reads a complete local configuration', () => {
    const config = readAppConfig({
      VITE_SUPABASE_URL: 'http://127.0.0.1:54321',
      VITE_SUPABASE_ANON_KEY: 'sb_publishable_x',
      VITE_CHAIN_ID: '31337',
      VITE_RPC_URL: 'http://127.0.0.1:8545',
      VITE_DDEX_TOKEN_ADDRESS: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
      VITE_UNISWAP_V2_ROUTER: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
      VITE_CONTACT_EMAIL: 'team@ddex.test',
      VITE_PRODUCT_SITE: 'https://ddex.test',
      VITE_BLOCK_EXPLORER_URL: 'https://sepolia.etherscan.io/',
    });
    expect(config).toEqual({
      supabase: { url: 'http://127.0.0.1:54321', anonKey: 'sb_publishable_x' },
      chain: { id: 31337, name: 'Hardhat (local)' },
      rpcUrl: 'http://127.0.0.1:8545',
      tokenAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
      uniswapRouter: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
      contactEmail: 'team@ddex.test',
      productSite: 'https://ddex.test',
      explorerUrl: 'https://sepolia.etherscan.io',
      hcaptchaSitekey: null,
      problems: [],
    });
  });

  it('reads hCaptcha’s site key for the faucet’s human check, trimmed; unset is null', () => {
    const sitekey = '10000000-ffff-ffff-ffff-000000000001';
    expect(readAppConfig({ VITE_HCAPTCHA_SITEKEY: ` ${sitekey} ` }).hcaptchaSitekey).toBe(sitekey);
    expect(readAppConfig({ VITE_HCAPTCHA_SITEKEY: '' }).hcaptchaSitekey).toBeNull();
  });

  it('reads no Tatum key or URL (the build refuses them: build-env.test.ts)', () => {
    const config = readAppConfig({
      VITE_TATUM_API_KEY: 't-key',
      VITE_TATUM_API_URL: 'https://api.tatum.io/v4/',
    });
    expect(config).not.toHaveProperty('tatum');
    expect(JSON.stringify(config)).not.toContain('t-key');
  });

  it('treats nothing set as the spec’s demo: no backend, Sepolia, no token', () => {
    const config = readAppConfig({});
    expect(config.supabase).toBeNull();
    expect(config.chain.id).toBe(11155111);
    expect(config.tokenAddress).toBeNull();
    expect(config.uniswapRouter).toBeNull();
    expect(config.problems).toEqual([]);
  });

  it('reads no market without VITE_UNISWAP_V2_ROUTER, and no problem either', () => {
    const config = readAppConfig({ VITE_DDEX_TOKEN_ADDRESS: '0x5fbdb2315678afecb367f032d93f642f64180aa3' });
    expect(config.tokenAddress).not.toBeNull();
    expect(config.uniswapRouter).toBeNull();
    expect(config.problems).toEqual([]);
  });

  it('names VITE_UNISWAP_V2_ROUTER when it is no address, and reads no market', () => {
    for (const value of ['0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc', 'uniswap-router']) {
      const config = readAppConfig({ VITE_UNISWAP_V2_ROUTER: value });
      expect(config.uniswapRouter).toBeNull();
      expect(config.problems).toEqual([`VITE_UNISWAP_V2_ROUTER is not an address: "${value}"`]);
    }
    for (const value of ['YOUR_UNISWAP_V2_ROUTER', `0x${'0'.repeat(40)}`, '  ']) {
      const config = readAppConfig({ VITE_UNISWAP_V2_ROUTER: value });
      expect(config.uniswapRouter).toBeNull();
      expect(config.problems).toEqual([]);
    }
  });

  it('keeps the placeholder and the zero address as "no token" without complaint', () => {
    for (const value of ['YOUR_DDEX_TOKEN_ADDRESS', '0x0000000000000000000000000000000000000000']) {
      const config = readAppConfig({ VITE_DDEX_TOKEN_ADDRESS: value });
      expect(config.tokenAddress).toBeNull();
      expect(config.problems).toEqual([]);
    }
  });

  it('names every malformed key and falls back to a safe value', () => {
    const config = readAppConfig({
      VITE_SUPABASE_URL: 'javascript:alert(1)',
      VITE_SUPABASE_ANON_KEY: 'k',
      VITE_CHAIN_ID: 'sepolia',
      VITE_RPC_URL: 'localhost:8545',
      VITE_DDEX_TOKEN_ADDRESS: '0x123',
      VITE_UNISWAP_V2_ROUTER: 'router',
      VITE_CONTACT_EMAIL: 'not an email',
      VITE_PRODUCT_SITE: 'ftp://x',
    });
    expect(config.supabase).toBeNull();
    expect(config.chain.id).toBe(11155111);
    expect(config.rpcUrl).toBeNull();
    expect(config.tokenAddress).toBeNull();
    expect(config.uniswapRouter).toBeNull();
    expect(config.contactEmail).toBe('support@example.com');
    expect(config.productSite).toBe('https://example.com');
    expect(config.problems.map((p) => p.split(' ')[0])).toEqual([
      'VITE_SUPABASE_URL',
      'VITE_CHAIN_ID',
      'VITE_DDEX_TOKEN_ADDRESS',
      'VITE_UNISWAP_V2_ROUTER',
      'VITE_CONTACT_EMAIL',
      'VITE_RPC_URL',
      'VITE_PRODUCT_SITE',
    ]);
  });

  it('asks for the anon key when only the URL is set', () => {
    const config = readAppConfig({ VITE_SUPABASE_URL: 'https://abc.supabase.co' });
    expect(config.supabase).toBeNull();
    expect(config.problems).toEqual(['VITE_SUPABASE_ANON_KEY is not set']);
  });
});
