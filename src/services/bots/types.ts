import type { Bot, BotFields, BotRun, BotRunsByBot, BotStatus } from '../../domain/bots.ts';
import type { Database } from '../../domain/database.types.ts';
import type { SubscriptionStatus } from '../../domain/notifications.ts';

export type { Bot, BotFields, BotRun, BotRunsByBot, BotStatus, SubscriptionStatus };

// The Trading Bots tab's backend calls (docs/product.md#trading-bots): the contract the bots
// machine's actors are built from. Types only, so the composition root may import it with
// `import type`. Every promise rejects with a BackendError (src/services/supabase/types.ts).

/** The rows as the tables hold them (supabase/migrations/20261201000001_market_bots.sql). */
export type BotRow = Database['public']['Tables']['bots']['Row'];
export type BotRunRow = Database['public']['Tables']['bot_runs']['Row'];

/** A change of one of the user's rows, as the live feed reports it; the list is read again on it. */
export type BotsChange = {
  table: 'bots' | 'bot_runs';
  eventType: 'INSERT' | 'UPDATE' | 'DELETE';
};

/** Which runs to read: the newest `limit` of the user's, at most `perBot` of each bot. */
export type RunsQuery = { limit: number; perBot: number };

export interface BotsService {
  /** The user's bots, oldest first (the order they were created in). */
  listBots(userId: string): Promise<Bot[]>;
  /**
   * The newest runs of the user's bots, grouped by bot, newest first. One query, grouped here:
   * no embedded select, which the local stack's REST does not serve.
   */
  listRuns(userId: string, query: RunsQuery): Promise<BotRunsByBot>;
  /** The new bot, active and armed from now; refused with the server's check above 25 bots. */
  createBot(fields: BotFields): Promise<Bot>;
  /** Replaces the name, the rule and the cooldown; a new rule re-arms the bot from now. */
  updateBot(id: string, fields: BotFields): Promise<Bot>;
  /** Pauses or resumes; resuming re-arms the bot from now. */
  setStatus(id: string, status: BotStatus): Promise<Bot>;
  /** Deletes the bot and its runs (its notifications stay). */
  deleteBot(id: string): Promise<void>;
  /**
   * Live changes of the user's bots and runs. Never retries on its own: the caller decides when
   * to subscribe again. The returned function removes the channel; no handler is called after it.
   * `error` is realtime's explanation for CHANNEL_ERROR, when it gave one.
   */
  subscribeBots(
    userId: string,
    onChange: (change: BotsChange) => void,
    onStatus: (status: SubscriptionStatus, error?: string) => void,
  ): () => void;
}
