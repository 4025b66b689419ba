import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gatewayFor } from '../e2e/context.ts';
import type { PortalWorld } from './world.ts';

// Another client of the signed-in account in the same browser: supabase-js in another tab of the
// portal's origin (another app of the project would be one), sharing the stored session. What it
// does to the account, supabase-js tells every tab of the origin over its BroadcastChannel, so the
// portal's tab hears USER_UPDATED without anything done in it, as it would from a real second
// client. The tab shows a file of the portal's origin (its icon), not the portal: a portal in a
// browser whose clock is paused could not show its lazily loaded dialogs.

const SUPABASE_UMD = readFileSync(
  fileURLToPath(new URL('../../../node_modules/@supabase/supabase-js/dist/umd/supabase.js', import.meta.url)),
  'utf8',
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
  await tab.goto(`${portal.appUrl}/favicon.svg`);
  // Evaluated as the developer tools do, which the origin's Content-Security-Policy leaves alone.
  await tab.evaluate(`(() => { ${SUPABASE_UMD}\n; window.supabase = supabase; })()`);
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
