import { describe, expect, it } from 'vitest';
import { authCopy, portalCopy, walletCopy } from '../../src/copy/index.ts';
import { anonClient, PASSWORD, type TestUser } from '../support/stack/users.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { PHONE_VIEWPORT, type PortalOptions } from '../support/e2e/browser.ts';
import { gatewayFor } from '../support/e2e/context.ts';
import {
  balancesLoaded,
  button,
  clearToasts,
  connect,
  logIn,
  openWithWallet,
  setAvatar,
} from '../support/e2e/portal-page.ts';
import { screenshot } from '../support/e2e/screenshot.ts';

// The README's pictures of the portal (docs/screenshots/). This file is part of the e2e project
// only when they are asked for (`npm run screenshots`, E2E_SCREENSHOTS=1; see vitest.config.ts):
// it checks nothing the portal tests do not, and an ordinary run leaves the working tree alone.

const viewer = e2eAccount('viewer');

async function signUpAs(email: string): Promise<TestUser> {
  const client = anonClient(gatewayFor('full'));
  const { data, error } = await client.auth.signUp({ email, password: PASSWORD });
  if (error || !data.user || !data.session)
    throw new Error(`sign-up failed: ${error?.message ?? 'no session'}`);
  return { client, id: data.user.id, email, password: PASSWORD, accessToken: data.session.access_token };
}

describe('README screenshots', () => {
  it('shows the portal connected, signed in, balances loaded, in both themes and on a phone', async () => {
    // A fixed name, so the pictures do not change from run to run (the stack starts empty).
    const user = await signUpAs('satoshi@example.com');
    const shots: [string, PortalOptions][] = [
      ['portal-light', { colorScheme: 'light' }],
      ['portal-dark', { colorScheme: 'dark' }],
      ['portal-phone', { colorScheme: 'dark', viewport: PHONE_VIEWPORT }],
    ];
    let avatarSet = false;
    for (const [name, options] of shots) {
      const { page, close } = await openWithWallet({ account: viewer }, options);
      await logIn(page, user);
      if (!avatarSet) {
        await setAvatar(user);
        avatarSet = true;
        await page.reload();
        await button(page, authCopy.logout).waitFor();
      }
      await page.getByRole('img', { name: portalCopy.avatarAlt('satoshi') }).waitFor();
      await connect(page, viewer.address, walletCopy.connectYourWallet);
      await balancesLoaded(page);
      await clearToasts(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await screenshot(page, name)).toMatch(new RegExp(`docs/screenshots/${name}\\.png$`));
      await close();
    }
  }, 120_000);
});
