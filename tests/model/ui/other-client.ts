import { fileURLToPath } from 'node:url';
import { gatewayFor } from '../../e2e/support/context.ts';
import type { PortalWorld } from './world.ts';

// Another client of the signed-in account in the same browser: supabase-js in another tab of the
// portal's origin (another app of the project would be one), sharing the stored session. What it
// does to the account, supabase-js tells every tab of the origin over its BroadcastChannel, so the
// portal's tab hears USER_UPDATED without anything done in it, as it would from a real second
// client. The tab is a blank page of the portal's origin (not the portal: a portal in a browser
// whose clock is paused could not show its lazily loaded dialogs).

const SUPABASE_UMD = fileURLToPath(
  new URL('../../../node_modules/@supabase/supabase-js/dist/umd/supabase.js', import.meta.url),
);

declare global {
  interface Window {
    __userUpdateHeard?: Promise<void>;
    supabase?: {
      createClient(
        url: string,
        key: string,
      ): { auth: { updateUser(attributes: object): Promise<{ error: { message: string } | null }> } };
    };
  }
}

/**
 * Updates the account's metadata from another client in the same browser; resolves once the
 * portal's tab has heard of it (its supabase-js has told the portal by then).
 */
export async function updateUserElsewhere(world: PortalWorld, data: Record<string, unknown>): Promise<void> {
  const { page, portal } = world;
  // The key supabase-js stores the session under also names its channel between tabs. A listener
  // of the portal's tab made after supabase-js's own hears a message after it.
  await page.evaluate(() => {
    const key = Object.keys(localStorage).find((name) => /^sb-.+-auth-token$/.test(name));
    if (!key) throw new Error('the portal holds no session');
    window.__userUpdateHeard = new Promise<void>((resolve) => {
      const channel = new BroadcastChannel(key);
      channel.onmessage = (message: MessageEvent<{ event?: string }>) => {
        if (message.data.event !== 'USER_UPDATED') return;
        channel.close();
        resolve();
      };
    });
  });

  const tab = await portal.context.newPage();
  const blank = `${portal.appUrl}/__another-client`;
  // Served by the test, not by the portal's server: a page of the origin with nothing of the portal.
  await tab.route(blank, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Another client</title>' }),
  );
  await tab.goto(blank);
  await tab.addScriptTag({ path: SUPABASE_UMD });
  const gateway = gatewayFor('full');
  await tab.evaluate(
    async ({ url, anonKey, metadata }) => {
      if (!window.supabase) throw new Error('supabase-js did not load');
      const { error } = await window.supabase.createClient(url, anonKey).auth.updateUser({ data: metadata });
      if (error) throw new Error(`the other client could not update the user: ${error.message}`);
    },
    { url: gateway.url, anonKey: gateway.anonKey, metadata: data },
  );
  await page.evaluate(() => window.__userUpdateHeard);
  await tab.close();
}
