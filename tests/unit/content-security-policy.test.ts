import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  headersFile,
  inlineScriptHashes,
  trustedInlineScripts,
  pagePolicy,
  parsePolicy,
  policyDirectives,
  policyFromHeadersFile,
  serializePolicy,
  withPolicyMeta,
} from '../../scripts/lib/content-security-policy.ts';

// The production build's Content-Security-Policy, as the operator reads it:
// which origins a build's configuration lets the page reach, that nothing
// broader is allowed, that the inline theme script is allowed by its hash
// only, and the two forms it ships in (the <meta> and `_headers`).

const LOCAL = {
  VITE_SUPABASE_URL: 'http://127.0.0.1:54321',
  VITE_SUPABASE_ANON_KEY: 'sb_publishable_x',
  VITE_RPC_URL: 'http://127.0.0.1:8545',
  VITE_CHAIN_ID: '31337',
  VITE_BLOCK_EXPLORER_URL: 'https://sepolia.etherscan.io',
  VITE_PRODUCT_SITE: 'https://ddex.example',
};

const HOSTED = {
  VITE_SUPABASE_URL: 'https://abcdefgh.supabase.co',
  VITE_SUPABASE_ANON_KEY: 'sb_publishable_x',
  VITE_RPC_URL: 'https://sepolia.node.example/v3/secret-project-key',
  VITE_BLOCK_EXPLORER_URL: 'https://sepolia.etherscan.io',
};

const THEME_SCRIPT = "\n      document.documentElement.dataset.theme = 'dark';\n    ";
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>DDEX Token Portal</title>
    <!-- <script>not a script</script> -->
    <script>${THEME_SCRIPT}</script>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <style>body { margin: 0; }</style>
  </head>
  <body><div id="root"></div></body>
</html>`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const directivesOf = (env: Record<string, string>, hashes: string[] = []) =>
  parsePolicy(serializePolicy(policyDirectives(env, hashes)));

describe('Content-Security-Policy', () => {
  it('lets a local build reach exactly its gateway (http and ws) and RPC node', () => {
    const policy = directivesOf(LOCAL);
    expect(policy.get('connect-src')).toEqual([
      "'self'",
      'http://127.0.0.1:54321',
      'ws://127.0.0.1:54321',
      'http://127.0.0.1:8545',
    ]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'http://127.0.0.1:54321']);
  });

  it('lets a hosted build reach its Supabase (https and wss) and its RPC origin; no path, key or Tatum', () => {
    const serialized = serializePolicy(policyDirectives(HOSTED, []));
    const policy = parsePolicy(serialized);
    expect(policy.get('connect-src')).toEqual([
      "'self'",
      'https://abcdefgh.supabase.co',
      'wss://abcdefgh.supabase.co',
      'https://sepolia.node.example',
    ]);
    // Tatum is reached through the functions, on the Supabase origin; a stale key changes nothing.
    expect(
      serializePolicy(policyDirectives({ ...HOSTED, VITE_TATUM_API_URL: 'https://api.tatum.io/v4/' }, [])),
    ).toBe(serialized);
    expect(serialized).not.toContain('tatum');
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'https://abcdefgh.supabase.co']);
    expect(serialized).not.toContain('secret-project-key');
    // Links only: the explorer is never fetched.
    expect(serialized).not.toContain('etherscan');
  });

  it('allows no backend at all when none is configured, or when its values are unusable', () => {
    const unconfigured: Record<string, string>[] = [
      {},
      // A URL without a key gives no client (the app says 'Supabase client not available').
      { VITE_SUPABASE_URL: 'https://abcdefgh.supabase.co' },
      { VITE_SUPABASE_URL: 'abcdefgh.supabase.co', VITE_SUPABASE_ANON_KEY: 'x', VITE_RPC_URL: 'ftp://node' },
      // Tatum is never the browser's to reach.
      { VITE_TATUM_API_URL: 'https://tatum.example/v4/' },
    ];
    for (const env of unconfigured) {
      const policy = directivesOf(env);
      expect(policy.get('connect-src'), JSON.stringify(env)).toEqual(["'self'"]);
      expect(policy.get('img-src'), JSON.stringify(env)).toEqual(["'self'", 'data:']);
    }
  });

  it('lets a hosted build with an hCaptcha site key load hCaptcha’s widget, as hCaptcha documents', () => {
    const policy = directivesOf({ ...HOSTED, VITE_HCAPTCHA_SITEKEY: 'site-key' }, [sha256('x')]);
    const hcaptcha = ['https://hcaptcha.com', 'https://*.hcaptcha.com'];
    expect(policy.get('script-src')).toEqual(["'self'", sha256('x'), ...hcaptcha]);
    expect(policy.get('frame-src')).toEqual(["'self'", ...hcaptcha]);
    expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'", ...hcaptcha]);
    expect(policy.get('connect-src')?.slice(-2)).toEqual(hcaptcha);
    // The site key is public, yet it is no source.
    expect(
      serializePolicy(policyDirectives({ ...HOSTED, VITE_HCAPTCHA_SITEKEY: 'site-key' }, [])),
    ).not.toContain('site-key');
  });

  it('allows no hCaptcha without a site key, nor on a local build, whose human check is a stand-in', () => {
    for (const env of [HOSTED, LOCAL, { ...LOCAL, VITE_HCAPTCHA_SITEKEY: 'site-key' }]) {
      expect(serializePolicy(policyDirectives(env, []))).not.toContain('hcaptcha');
      expect(directivesOf(env).has('frame-src')).toBe(false);
    }
  });

  it('never allows a wildcard, a bare scheme, eval or inline script, and keeps the fixed directives', () => {
    // (hCaptcha's own sources, the one exception, are above.)
    for (const env of [LOCAL, HOSTED, {}]) {
      const policy = directivesOf(env, [sha256('x')]);
      for (const [name, sources] of policy) {
        for (const source of sources) {
          expect(source, `${name} ${source}`).not.toMatch(/\*/);
          expect(source, `${name} ${source}`).not.toMatch(/^(https?|wss?|blob|filesystem):?$/);
          expect(source, `${name} ${source}`).not.toBe("'unsafe-eval'");
        }
      }
      expect(policy.get('script-src')).toEqual(["'self'", sha256('x')]);
      expect(policy.get('default-src')).toEqual(["'self'"]);
      // A hash beside 'unsafe-inline' would make the browser ignore it, breaking runtime styles.
      expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(policy.get('base-uri')).toEqual(["'self'"]);
      expect(policy.get('form-action')).toEqual(["'self'"]);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    }
  });

  it('hashes each inline script as the browser does, and skips external and commented-out ones', () => {
    expect(inlineScriptHashes(PAGE)).toEqual([sha256(THEME_SCRIPT)]);
    // The HTML parser reads CR LF as LF before hashing.
    expect(inlineScriptHashes(PAGE.replace(/\n/g, '\r\n'))).toEqual([sha256(THEME_SCRIPT)]);
    expect(inlineScriptHashes('<head><script src="/a.js"></script></head>')).toEqual([]);
  });

  it('hashes the repository’s own inline theme script', () => {
    const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
    const theme = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(theme).toContain('dataset.theme');
    expect(inlineScriptHashes(html)).toEqual([sha256(theme)]);
  });

  it('puts the policy in a <meta> before any script, without the header-only frame-ancestors', () => {
    const { header, meta } = pagePolicy(LOCAL, PAGE);
    expect(header).toBe(`${meta}; frame-ancestors 'none'`);
    expect(parsePolicy(header).get('script-src')).toEqual(["'self'", sha256(THEME_SCRIPT)]);

    const page = withPolicyMeta(PAGE, meta);
    const tag = `<meta http-equiv="Content-Security-Policy" content="${meta}" />`;
    expect(page.indexOf(tag)).toBeGreaterThan(page.indexOf('<meta charset="UTF-8" />'));
    expect(page.indexOf(tag)).toBeLessThan(page.indexOf('<script>'));
    // The page is otherwise unchanged, so the hashes still hold.
    expect(page.replace(`\n    ${tag}`, '')).toBe(PAGE);
    expect(inlineScriptHashes(page)).toEqual(inlineScriptHashes(PAGE));
    expect(withPolicyMeta('<head></head>', 'x "y" & z')).toBe(
      '<head>\n<meta http-equiv="Content-Security-Policy" content="x &quot;y&quot; &amp; z" /></head>',
    );
    expect(() => withPolicyMeta('<p>no head</p>', meta)).toThrow(/no <head>/);
  });

  it('writes a _headers file that sends the policy for every path, and reads it back', () => {
    const { header } = pagePolicy(LOCAL, PAGE);
    const file = headersFile(header);
    const lines = file.split('\n').filter((line) => line && !line.startsWith('#'));
    // frame-ancestors has no <meta> form, and older browsers read only X-Frame-Options.
    expect(lines).toEqual(['/*', `  Content-Security-Policy: ${header}`, '  X-Frame-Options: DENY']);
    expect(policyFromHeadersFile(file)).toBe(header);
    expect(policyFromHeadersFile(file.replace(/\n/g, '\r\n'))).toBe(header);
    expect(policyFromHeadersFile('/*\n  X-Frame-Options: DENY\n')).toBeNull();
  });

  it('trusts in the built page exactly the inline scripts index.html has: the theme script', () => {
    const source = PAGE;
    expect(trustedInlineScripts(source, PAGE)).toEqual([sha256(THEME_SCRIPT)]);
    // A plugin that wrote a script of its own into the page: the build stops, naming what it found.
    const injected = PAGE.replace('</body>', '<script>window.__state = {}</script></body>');
    expect(() => trustedInlineScripts(source, injected)).toThrow(
      'The built index.html has 2 inline scripts where index.html has 1 (the theme script)',
    );
    const changed = PAGE.replace(THEME_SCRIPT, "document.documentElement.dataset.theme = 'light';");
    expect(() => trustedInlineScripts(source, changed)).toThrow(/not the one index\.html has/);
  });
});
