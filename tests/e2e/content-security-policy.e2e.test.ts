import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  appCopy,
  balanceCopy,
  profileCopy,
  shellCopy,
  shortAddress,
  walletCopy,
  webhookCopy,
} from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { devtoolsCopy } from '../../src/devtools/panel/devtools.copy.ts';
import { IMAGES } from '../support/stack/avatar-images.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { openPortal, type Portal, type PortalOptions } from '../support/e2e/browser.ts';
import { e2e, gatewayFor } from '../support/e2e/context.ts';
import { feedJoined } from '../support/e2e/feed.ts';
import { admin, balanceValue, openUserMenu, signUpThroughUi, toast } from '../support/e2e/ui.ts';

// The production build's Content-Security-Policy as `vite preview` serves it
// (the header, from the build's `_headers`, and the <meta> in index.html):
// what it allows is exactly the `full` build's gateway (the Tatum emulator is
// reached only through its functions) and RPC node; a whole session of the portal trips none of it; and what an
// attacker would inject (an inline script, an inline handler, a string
// evaluated as code, a request to another origin) is refused and reported.
// Read-only wallet account: nothing here sends a transfer.

// The session links its wallet to a new user, so it needs one no other file links.
const linked = e2eAccount('csp');

type Violation = { directive: string; blocked: string; source: string; sample: string };

declare global {
  interface Window {
    __cspViolations?: Violation[];
    __injected?: string;
  }
}

/** directive name → sources, as a browser reads the policy. */
function parsePolicy(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !directives.has(name)) directives.set(name, sources);
  }
  return directives;
}

const originOf = (url: string) => new URL(url).origin;
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Browser messages about the policy (a refused script, style, image or request). */
const policyMessages = (portal: Portal) =>
  portal.console
    .filter((entry) => /content security policy|refused to/i.test(entry.text))
    .map((entry) => entry.text);

/**
 * The portal opened with a `securitypolicyviolation` listener installed before any page script, in
 * this and every later page load; each violation lands in `violations` (and in window.__cspViolations).
 */
async function openWatched(options: PortalOptions = {}) {
  const portal = await openPortal(options);
  const violations: Violation[] = [];
  await portal.context.exposeFunction('__reportCspViolation', (violation: Violation) => {
    violations.push(violation);
  });
  await portal.context.addInitScript(() => {
    const report = (window as unknown as { __reportCspViolation: (violation: Violation) => void })
      .__reportCspViolation;
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      const violation = {
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${event.lineNumber}`,
        sample: event.sample,
      };
      window.__cspViolations?.push(violation);
      report(violation);
    });
  });
  // openPortal has loaded the page already: load it again with the listener in place.
  await portal.page.reload({ waitUntil: 'load' });
  await portal.page.getByRole('heading', { level: 1, name: appCopy.heading }).waitFor();
  return { ...portal, violations };
}

const button = (page: Page, name: string | RegExp) => page.getByRole('button', { name, exact: true });

async function openFromUserMenu(page: Page, item: string, title: string) {
  await openUserMenu(page);
  await page.getByRole('button', { name: item, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  return dialog;
}

async function closeDialog(page: Page) {
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
}

describe('Content-Security-Policy', () => {
  it('is sent with the page and allows only the configured gateway and RPC node', async () => {
    const { url, env } = e2e().apps.full;
    const gateway = gatewayFor('full');
    // The build's configuration is the stack's: what the policy must allow.
    expect(env['VITE_SUPABASE_URL']).toBe(gateway.url);
    expect(env['VITE_RPC_URL']).toBe(e2e().chain.rpcUrl);
    // Tatum is the functions' business: the browser has no key and no address for it.
    expect(env['VITE_TATUM_API_URL']).toBeUndefined();

    const response = await fetch(`${url}/`);
    const header = response.headers.get('content-security-policy') ?? '';
    const html = await response.text();
    const policy = parsePolicy(header);

    const backend = originOf(gateway.url);
    expect(new Set(policy.get('connect-src'))).toEqual(
      new Set(["'self'", backend, backend.replace(/^http/, 'ws'), originOf(e2e().chain.rpcUrl)]),
    );
    expect(new Set(policy.get('img-src'))).toEqual(new Set(["'self'", 'data:', backend]));

    // Scripts: the app's own files and the inline theme script, by the hash of what was served.
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
    expect(inline).toHaveLength(1);
    expect(policy.get('script-src')).toEqual(["'self'", sha256(inline[0] ?? '')]);
    expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    // The same for browsers that know only the older header.
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    for (const [name, sources] of policy) {
      for (const source of sources) {
        expect(source, name).not.toMatch(/\*|^(https?|wss?|blob):?$|'unsafe-eval'/);
      }
    }

    // The same policy is in the page itself, less frame-ancestors, which a <meta> cannot carry.
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(`${meta}; frame-ancestors 'none'`).toBe(header);
    expect(html.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(html.indexOf('<script'));
  });

  it('lets a whole session run without one violation: wallet, balances, sign-up, webhooks, live notification, dialogs, avatar, devtools', async () => {
    const portal = await openWatched({ wallet: { account: linked } });
    const { page } = portal;
    // The inline theme script ran (allowed by its hash).
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');

    await button(page, walletCopy.connectWallet).click();
    await page.getByText(shortAddress(linked.address), { exact: true }).waitFor();
    for (const label of [balanceCopy.native, balanceCopy.token]) {
      await expect.poll(() => balanceValue(page, label).textContent(), { timeout: 20_000 }).toMatch(/^\d/);
    }

    // Auth and the database over http, then a notification pushed over the realtime socket.
    const joined = feedJoined(page);
    const { userId } = await signUpThroughUi(page, 'csp');
    await joined;
    // The connected wallet is linked to the new profile, with a toast of its own; the notification's
    // toast must not arrive just before it and be replaced unseen.
    await toast(page, profileCopy.createdAndLinked).waitFor();

    // The webhook demo, for the proven wallet, reaches the Tatum emulator through its function.
    const demo = page.getByRole('region', { name: webhookCopy.section });
    await demo.getByRole('button', { name: webhookCopy.create, exact: true }).click();
    await toast(page, webhookCopy.created).waitFor();
    await demo.getByRole('button', { name: webhookCopy.list, exact: true }).click();
    await toast(page, webhookCopy.active).waitFor();

    const { error } = await admin()
      .from('user_notifications')
      .insert({ user_id: userId, title: 'Policy Check', message: 'Delivered over the realtime socket.' });
    expect(error).toBeNull();
    await toast(page, 'Policy Check').waitFor();
    await button(page, shellCopy.notifications(1)).click();
    await page.getByRole('dialog', { name: dialogCopy.notifications.title }).waitFor();
    await closeDialog(page);

    // An avatar uploaded to Storage and shown from it.
    const profile = await openFromUserMenu(page, appCopy.menu.profile, dialogCopy.profile.title);
    await profile
      .getByLabel(dialogCopy.profile.chooseAvatar, { exact: true })
      .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: Buffer.from(IMAGES.png) });
    await toast(page, profileCopy.avatarUploaded.title).waitFor();
    const avatar = profile.getByRole('img', { name: dialogCopy.profile.avatarAlt });
    expect(await avatar.getAttribute('src')).toContain(`${gatewayFor('full').url}/storage/v1/`);
    await expect
      .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await closeDialog(page);
    await openFromUserMenu(page, appCopy.menu.transactions, dialogCopy.transactions.title);
    await closeDialog(page);

    // The developer panel's Mermaid drawing, and Stately's inspector (a window it opens, no request here).
    await page.goto(`${portal.appUrl}/?devtools&inspect`);
    await button(page, devtoolsCopy.toggleText).click();
    const panel = page.getByRole('region', { name: devtoolsCopy.title, exact: true });
    await panel.getByRole('tab', { name: devtoolsCopy.tabs.diagram }).click();
    await panel.getByRole('img', { name: /^Statechart of portal;/ }).waitFor({ timeout: 30_000 });

    expect(portal.violations).toEqual([]);
    expect(await page.evaluate(() => window.__cspViolations)).toEqual([]);
    expect(policyMessages(portal)).toEqual([]);
    expect(portal.pageErrors).toEqual([]);
  }, 120_000);

  it('refuses and reports an injected inline script, inline handler, string eval and a request elsewhere', async () => {
    const portal = await openWatched();
    const { page } = portal;
    // A server on this machine the build is not configured for: the other e2e gateway.
    const elsewhere = gatewayFor('confirmEmail').url;
    expect(originOf(elsewhere)).not.toBe(originOf(gatewayFor('full').url));

    const fetched = await page.evaluate(async (target) => {
      const script = document.createElement('script');
      script.textContent = "window.__injected = 'inline script'";
      document.body.append(script);
      const holder = document.createElement('div');
      holder.innerHTML = `<img src="/no-such-image.png" onerror="window.__injected = 'inline handler'">`;
      document.body.append(holder);
      // A string timer is compiled in the page, as eval would be.
      (setTimeout as (code: string, delay: number) => number)("window.__injected = 'eval'", 0);
      try {
        await fetch(`${target}/auth/v1/health`);
        return 'fetched';
      } catch {
        return 'refused';
      }
    }, elsewhere);
    expect(fetched).toBe('refused');

    const seen = (directive: string, blocked: string) =>
      expect.arrayContaining([expect.objectContaining({ directive, blocked })]);
    await expect.poll(() => portal.violations).toEqual(seen('script-src-elem', 'inline'));
    await expect.poll(() => portal.violations).toEqual(seen('script-src-attr', 'inline'));
    await expect.poll(() => portal.violations).toEqual(seen('script-src', 'eval'));
    await expect
      .poll(() =>
        portal.violations.map((violation) => violation.directive === 'connect-src' && violation.blocked),
      )
      .toContain(`${elsewhere}/auth/v1/health`);
    expect(await page.evaluate(() => window.__injected)).toBeUndefined();
    expect(policyMessages(portal).length).toBeGreaterThan(0);
  });
});
