import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../domain/database.types.ts';
import { createBotsService } from '../services/bots/index.ts';
import { provideBots } from './provide-bots.ts';

// The Trading Bots tab's code, loaded when the tab is first shown (src/main.tsx imports this module
// then, from the portal's `loadBots` actor), so the bots service and machine load with the tab, not
// with the entry. The service is built from the page's one supabase-js client, so it calls with the
// page's session. The portal's root spawns the logic it gives.

export function botsTabLogic(client: SupabaseClient<Database>) {
  return provideBots({ bots: createBotsService(client) });
}
