import { createHash } from 'node:crypto';
import { readAppConfig, type RawEnv } from '../../src/config/app-config.ts';
import { LOCAL_CHAIN_ID } from '../../stack/chain/hardhat.ts';

// The portal's Content-Security-Policy, computed at build time (vite.config.ts)
// from the same VITE_* values the bundle is built with and from the final
// index.html. The page may run only its own scripts and the inline theme
// script (by hash), and talk only to the configured backend and RPC node
// (Tatum is reached through the backend's functions). The policy ships twice: as a <meta> in index.html (so any static
// host enforces it) and in a `_headers` file next to it (Netlify / Cloudflare
// Pages format), which `vite preview` sends as a header and which also holds
// the directive a <meta> cannot carry (frame-ancestors). See docs/deploy.md.

export const POLICY_HEADER = 'Content-Security-Policy';
export const HEADERS_FILE = '_headers';

export type Directive = { name: string; sources: string[] };

/** Directives a browser ignores in a <meta> policy (and warns about in the console). */
const HEADER_ONLY = new Set(['frame-ancestors', 'report-uri', 'sandbox']);
/** The older header that keeps the page out of frames. */
export const FRAME_HEADER = 'X-Frame-Options';

/** The origins the built app talks to, as main.tsx wires its services from the same configuration. */
export function configuredOrigins(env: RawEnv): { connect: string[]; images: string[] } {
  const config = readAppConfig(env);
  const connect: string[] = [];
  const images: string[] = [];
  if (config.supabase) {
    // REST, Auth, Storage and the Edge Functions over http(s); Realtime over the ws(s) form of the same origin.
    const backend = originOf(config.supabase.url);
    connect.push(backend, backend.replace(/^http/, 'ws'));
    // Avatars are <img> elements on the Storage URL.
    images.push(backend);
  }
  // The DDEX reads and sends. Tatum needs no entry: the browser reaches it only through the functions.
  if (config.rpcUrl) connect.push(originOf(config.rpcUrl));
  return { connect: unique(connect), images: unique(images) };
}

// The local chain (Hardhat, LOCAL_CHAIN_ID): its builds show a stand-in for hCaptcha's widget.

/**
 * hCaptcha's sources, for the faucet's human check on a hosted build with a site key: what
 * hCaptcha documents under "Content-Security-Policy Settings" (https://docs.hcaptcha.com/): script-src,
 * frame-src, style-src and connect-src "should include https://hcaptcha.com, https://*.hcaptcha.com",
 * and not specific subdomains, which "may vary over time or by region". The one wildcard of the
 * policy, and only on such a build; a local build's stand-in needs none.
 */
export function hcaptchaSources(env: RawEnv): string[] {
  const config = readAppConfig(env);
  return config.hcaptchaSitekey && config.chain.id !== LOCAL_CHAIN_ID
    ? ['https://hcaptcha.com', 'https://*.hcaptcha.com']
    : [];
}

/**
 * The policy for a page: `env` is the build's VITE_* configuration, `scriptHashes` the 'sha256-…'
 * sources of the page's inline scripts (inlineScriptHashes).
 */
export function policyDirectives(env: RawEnv, scriptHashes: string[]): Directive[] {
  const origins = configuredOrigins(env);
  const hcaptcha = hcaptchaSources(env);
  return [
    { name: 'default-src', sources: ["'self'"] },
    // Never 'unsafe-inline' or 'unsafe-eval': an injected <script> or inline handler does not run.
    { name: 'script-src', sources: ["'self'", ...unique(scriptHashes), ...hcaptcha] },
    // hCaptcha's widget and challenge are frames of its own; otherwise default-src's 'self' holds.
    ...(hcaptcha.length > 0 ? [{ name: 'frame-src', sources: ["'self'", ...hcaptcha] }] : []),
    // styled-components writes <style> elements at run time, whose rules no hash can name, and it
    // takes a nonce only from the server per response, which a static host does not make. (A hash
    // here would also make the browser ignore 'unsafe-inline'.) CSS cannot run script.
    { name: 'style-src', sources: ["'self'", "'unsafe-inline'", ...hcaptcha] },
    // data: keeps an avatar_url holding an inline picture showing; an image cannot run script.
    { name: 'img-src', sources: ["'self'", 'data:', ...origins.images] },
    { name: 'connect-src', sources: ["'self'", ...origins.connect, ...hcaptcha] },
    { name: 'object-src', sources: ["'none'"] },
    { name: 'base-uri', sources: ["'self'"] },
    { name: 'form-action', sources: ["'self'"] },
    { name: 'frame-ancestors', sources: ["'none'"] },
  ];
}

export function serializePolicy(directives: Directive[]): string {
  return directives.map(({ name, sources }) => [name, ...sources].join(' ')).join('; ');
}

/** A policy string as directive name → sources (the first occurrence of a name wins, as in browsers). */
export function parsePolicy(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/** The 'sha256-…' source of an inline script's text, as the browser hashes it. */
export function sha256Source(text: string): string {
  // The HTML parser turns CR LF and lone CR into LF before a script's text exists.
  const normalised = text.replace(/\r\n?/g, '\n');
  return `'sha256-${createHash('sha256').update(normalised, 'utf8').digest('base64')}'`;
}

/** Hash sources of every inline <script> of a page (those without src), in document order. */
export function inlineScriptHashes(html: string): string[] {
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, '');
  const hashes: string[] = [];
  for (const match of withoutComments.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const [, attributes = '', text = ''] = match;
    if (!/\bsrc\s*=/i.test(attributes)) hashes.push(sha256Source(text));
  }
  return hashes;
}

/**
 * The inline scripts the policy may trust: exactly those of the source index.html (the theme
 * script), found again in the built page. Anything a plugin or the prerender wrote into the page
 * stops the build instead of being trusted by hash without anybody reading it.
 */
export function trustedInlineScripts(sourceHtml: string, builtHtml: string): string[] {
  const expected = inlineScriptHashes(sourceHtml);
  const found = inlineScriptHashes(builtHtml);
  if (found.length !== expected.length) {
    throw new Error(
      `The built index.html has ${found.length} inline scripts where index.html has ${expected.length} ` +
        '(the theme script): a plugin wrote a script into the page. Load it from a file instead.',
    );
  }
  const strange = found.filter((hash, index) => hash !== expected[index]);
  if (strange.length > 0) {
    throw new Error(
      `The built index.html has an inline script that is not the one index.html has: ${strange.join(' ')}`,
    );
  }
  return found;
}

/** The header and <meta> forms of a page's policy. */
export function pagePolicy(
  env: RawEnv,
  html: string,
  scriptHashes: string[] = inlineScriptHashes(html),
): { header: string; meta: string } {
  const directives = policyDirectives(env, scriptHashes);
  return {
    header: serializePolicy(directives),
    meta: serializePolicy(directives.filter(({ name }) => !HEADER_ONLY.has(name))),
  };
}

/**
 * The page with its policy as the first element after <meta charset> (a <meta> policy covers only
 * what follows it, and the charset must stay within the first bytes).
 */
export function withPolicyMeta(html: string, metaPolicy: string): string {
  const tag = `<meta http-equiv="${POLICY_HEADER}" content="${escapeAttribute(metaPolicy)}" />`;
  const charset = /<meta\s+charset=[^>]*>/i.exec(html);
  const head = /<head\b[^>]*>/i.exec(html);
  const anchor = charset ?? head;
  if (!anchor) throw new Error('index.html has no <head> to put the Content-Security-Policy in');
  const at = anchor.index + anchor[0].length;
  const indent = /\n([ \t]*)$/.exec(html.slice(0, anchor.index))?.[1] ?? '';
  return `${html.slice(0, at)}\n${indent}${tag}${html.slice(at)}`;
}

/** A `_headers` file (Netlify, Cloudflare Pages) that sends the policy with every path. */
export function headersFile(policy: string): string {
  return [
    '# The Content-Security-Policy of this build, from the VITE_* values it was built with.',
    '# Send it as a header with every response (docs/deploy.md, "Content-Security-Policy").',
    '/*',
    `  ${POLICY_HEADER}: ${policy}`,
    // What frame-ancestors 'none' says, for browsers that read only this header.
    `  ${FRAME_HEADER}: DENY`,
    '',
  ].join('\n');
}

/** The policy a `_headers` file sends, or null when it names none. */
export function policyFromHeadersFile(text: string): string | null {
  const pattern = new RegExp(`^\\s+${POLICY_HEADER}\\s*:\\s*(.+?)\\s*$`, 'i');
  for (const line of text.split(/\r?\n/)) {
    const policy = pattern.exec(line)?.[1];
    if (policy) return policy;
  }
  return null;
}

function originOf(url: string): string {
  return new URL(url).origin;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}
