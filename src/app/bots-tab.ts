import type { SupabaseClient } from '@supabase/supabase-js';
import { createActor, type Actor } from 'xstate';
import type { Database } from '../domain/database.types.ts';
import type { portalMachine } from '../machines/portal.machine.ts';
import { createBotsService } from '../services/bots/index.ts';
import type { BotsTab } from '../ui/settings-context.tsx';
import { provideBots } from './provide-bots.ts';

// Starts the Trading Bots tab's actor when the tab opens (src/main.tsx imports this module then, so
// the bots service and machine load with the tab, not with the entry). The service is built here
// from the page's one supabase-js client, so it calls with the page's session. The actor lives in a
// system of its own; this module feeds it the signed-in user from the portal's snapshots. The view
// stops it when the tab closes.

export type BotsTabServices = {
  portal: Actor<typeof portalMachine>;
  /** The page's supabase-js client (src/main.tsx). */
  client: SupabaseClient<Database>;
};

const userIdOf = ({ context }: ReturnType<Actor<typeof portalMachine>['getSnapshot']>): string | null =>
  context.user?.id ?? null;

export function startBotsTab({ portal, client }: BotsTabServices): BotsTab {
  const machine = provideBots({ bots: createBotsService(client), portal: portal.system });
  let userId = userIdOf(portal.getSnapshot());
  const actor = createActor(machine, { input: { userId } });
  const page = portal.subscribe((snapshot) => {
    const next = userIdOf(snapshot);
    if (next !== userId) actor.send({ type: 'session.changed', signedIn: next !== null, userId: next });
    userId = next;
  });
  actor.start();
  return {
    actor,
    stop: () => {
      page.unsubscribe();
      actor.stop();
    },
  };
}
