import { describe, expect, it } from 'vitest';
import { appCopy, authCopy, footerCopy, walletCopy } from '../../src/copy/index.ts';
import { prerender } from '../../src/prerender.tsx';

// The first screen the build writes into index.html (src/prerender.tsx): a visitor's, drawn from a
// portal that never starts. The page's only inline script is the theme script, which the
// Content-Security-Policy allows by its hash; the prerendered HTML adds none.

const CONFIGURED = {
  VITE_SUPABASE_URL: 'http://127.0.0.1:54321',
  VITE_SUPABASE_ANON_KEY: 'sb_publishable_test',
  VITE_RPC_URL: 'http://127.0.0.1:8545',
  VITE_CHAIN_ID: '31337',
  VITE_DDEX_TOKEN_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  VITE_CONTACT_EMAIL: 'desk@example.org',
};

describe('prerender', () => {
  it.each([
    ['a configured build', CONFIGURED],
    ['a build without configuration', {}],
  ])('draws the visitor screen of %s without a script', (_, env) => {
    const { html, styleTags } = prerender(env);
    expect(html).not.toMatch(/<script/i);
    expect(styleTags).not.toMatch(/<script/i);
    for (const text of [
      appCopy.heading,
      authCopy.login,
      authCopy.signUp,
      appCopy.visitorPrompt,
      footerCopy.demo,
    ]) {
      expect(html).toContain(text);
    }
    // The wallet is still being looked for: the button says so until the page has run.
    expect(html).toContain(walletCopy.connectingWallet);
    expect(styleTags).toMatch(/^<style data-styled="true"/);
  });

  it('takes the footer from the build configuration', () => {
    expect(prerender(CONFIGURED).html).toContain('mailto:desk@example.org');
  });

  it('draws the same page every time: nothing in it depends on the clock or on chance', () => {
    expect(prerender(CONFIGURED)).toEqual(prerender(CONFIGURED));
  });
});
