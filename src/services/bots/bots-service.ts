import type { RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../domain/database.types.ts';
import { clientUnavailable } from '../supabase/errors.ts';
import { fromPostgrest, fromThrown } from '../supabase/failures.ts';
import { BackendError, type SubscriptionStatus } from '../supabase/types.ts';
import { RUN_COLUMNS, groupRuns, ruleColumns, toBot, toRun } from './bot-rows.ts';
import type { BotsChange, BotsService } from './types.ts';

// The bots tables through the portal's supabase-js client (docs/product.md#trading-bots). Built by
// the Trading Bots tab's composition root from src/main.tsx's client, in the tab's chunk, so the
// entry's SupabaseService does not grow. Row-level security keeps every call to the signed-in
// user's own rows; the user id in the filters says the same to the reader and to realtime.

/** PostgREST's code for `.single()` on no row: the bot is gone, or is not the user's. */
const NOT_FOUND = 'PGRST116';
/** Our code for that: the bots machine words it (a bot deleted in another tab). */
export const BOT_NOT_FOUND = 'bot_not_found';

const SUBSCRIPTION_STATES: ReadonlySet<string> = new Set<SubscriptionStatus>([
  'SUBSCRIBED',
  'CHANNEL_ERROR',
  'TIMED_OUT',
  'CLOSED',
]);

// A topic per subscription: supabase-js hands back the channel it already holds for a topic, which
// a resubscribe after an error must not get.
let channelSequence = 0;

/** With a null client (no configuration) every call fails with BackendError 'client_unavailable'. */
export function createBotsService(client: SupabaseClient<Database> | null): BotsService {
  return client === null ? unavailableBotsService() : liveService(client);
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (thrown) {
    throw fromThrown(thrown);
  }
}

/** A failed `.single()` write: a missing row gets a code of its own, anything else the server's. */
function writeFailure(error: { message?: string; code?: string }, status: number): BackendError {
  return error.code === NOT_FOUND
    ? new BackendError('No bot with this id belongs to the signed-in user', BOT_NOT_FOUND, 404)
    : fromPostgrest(error, status);
}

function liveService(client: SupabaseClient<Database>): BotsService {
  const bots = () => client.from('bots');

  const write = (id: string, values: Database['public']['Tables']['bots']['Update']) =>
    guarded(async () => {
      const { data, error, status } = await bots().update(values).eq('id', id).select().single();
      if (error) throw writeFailure(error, status);
      return toBot(data);
    });

  return {
    listBots: (userId) =>
      guarded(async () => {
        const { data, error, status } = await bots()
          .select('*')
          .eq('user_id', userId)
          .order('created_at', { ascending: true })
          .order('id', { ascending: true });
        if (error) throw fromPostgrest(error, status);
        return data.map(toBot);
      }),

    listRuns: (userId, { limit, perBot }) =>
      guarded(async () => {
        const { data, error, status } = await client
          .from('bot_runs')
          .select(RUN_COLUMNS)
          .eq('user_id', userId)
          .order('block_time', { ascending: false })
          .order('created_at', { ascending: false })
          .limit(limit);
        if (error) throw fromPostgrest(error, status);
        return groupRuns(data.map(toRun), perBot);
      }),

    createBot: ({ name, rule, cooldownMinutes }) =>
      guarded(async () => {
        // user_id is the column's default, auth.uid(): the row is the signed-in user's.
        const { data, error, status } = await bots()
          .insert({ name, ...ruleColumns(rule), cooldown_minutes: cooldownMinutes })
          .select()
          .single();
        if (error) throw fromPostgrest(error, status);
        return toBot(data);
      }),

    updateBot: (id, { name, rule, cooldownMinutes }) =>
      write(id, { name, ...ruleColumns(rule), cooldown_minutes: cooldownMinutes }),

    setStatus: (id, status) => write(id, { status }),

    deleteBot: (id) =>
      guarded(async () => {
        const { error, status } = await bots().delete().eq('id', id);
        if (error) throw fromPostgrest(error, status);
      }),

    subscribeBots(userId, onChange, onStatus) {
      let open = true;
      channelSequence += 1;
      const filter = `user_id=eq.${userId}`;
      const tell = (table: BotsChange['table']) => (payload: RealtimePostgresChangesPayload<object>) => {
        if (open) onChange({ table, eventType: payload.eventType });
      };
      const channel = client
        .channel(`bots:${userId}:${channelSequence}`)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'bots', filter }, tell('bots'))
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'bot_runs', filter },
          tell('bot_runs'),
        );
      channel.subscribe((state, error) => {
        if (!open || !SUBSCRIPTION_STATES.has(state)) return;
        if (error) onStatus(state as SubscriptionStatus, error.message);
        else onStatus(state as SubscriptionStatus);
      });
      return () => {
        if (!open) return;
        // Closed first, so our own removal is not reported back as CLOSED.
        open = false;
        void client.removeChannel(channel).catch(() => undefined);
      };
    },
  };
}

/** Without a backend: every request fails with 'client_unavailable'; the feed reports why. */
function unavailableBotsService(): BotsService {
  const refuse = () => Promise.reject(clientUnavailable());
  return {
    listBots: refuse,
    listRuns: refuse,
    createBot: refuse,
    updateBot: refuse,
    setStatus: refuse,
    deleteBot: refuse,
    subscribeBots(_userId, _onChange, onStatus) {
      let open = true;
      // Reported like a refused join, asynchronously as a real channel would.
      queueMicrotask(() => {
        if (open) onStatus('CHANNEL_ERROR', clientUnavailable().message);
      });
      return () => {
        open = false;
      };
    },
  };
}
