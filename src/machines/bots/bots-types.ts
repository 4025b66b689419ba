import type { Bot, BotDraft, BotDraftField, BotFields, BotRunsByBot, BotStatus } from '../../domain/bots.ts';
import type { SubscriptionStatus } from '../../domain/notifications.ts';
import type { DraftProblems } from './bot-checks.ts';
import type { SessionChanged } from '../shared.ts';

// The bots machine's input, context, events and actor inputs and outputs (bots.machine.ts), kept
// apart so that its file holds the chart.

/** Who is signed in when the tab opens; null for a visitor. */
export type BotsInput = { userId: string | null };

export type BotsContext = {
  userId: string | null;
  /** The user's bots, oldest first. */
  bots: Bot[];
  runs: BotRunsByBot;
  /** Failed loads in a row, capped at 4 (the 10 s step); sets the wait before the next. */
  loadFailures: number;
  /** Failed subscribes since the last good one, capped at 4 (the 10 s step). */
  feedFailures: number;
  /** The form as typed. */
  draft: BotDraft;
  /** The bot the form edits; null while it creates one. */
  editingId: string | null;
  /** Why each field was refused at the last submit; a field typed into since loses its words. */
  problems: DraftProblems;
  /** The checked draft on its way to the backend. */
  fields: BotFields | null;
  /** The bot being paused, resumed or deleted (or whose deletion is being confirmed). */
  targetId: string | null;
  /** The status asked of `targetId`. */
  targetStatus: BotStatus | null;
  /** A change the list has not read yet: it is read again as soon as nothing else runs. */
  stale: boolean;
};

/** One field of the form, with a value of that field's type. */
export type BotFieldEvent = {
  [Field in BotDraftField]: { type: 'bots.field'; name: Field; value: BotDraft[Field] };
}[BotDraftField];

/** What the `botsFeed` callback actor sends back. */
export type BotsFeedEvent =
  /** A row of the user's bots or runs was inserted, updated or deleted. */
  | { type: 'bots.changed'; table: 'bots' | 'bot_runs' }
  | { type: 'bots.feedStatus'; status: SubscriptionStatus };

export type BotsEvent =
  // From the portal's root, as its session changes.
  | SessionChanged
  // From the views.
  /** Load again now, after a failed load. */
  | { type: 'bots.retry' }
  /** Read the list again. */
  | { type: 'bots.refresh' }
  | { type: 'bots.create' }
  | { type: 'bots.edit'; id: string }
  | BotFieldEvent
  | { type: 'bots.submit' }
  /** Closes the form, or answers no to deleting. */
  | { type: 'bots.cancel' }
  | { type: 'bots.pause'; id: string }
  | { type: 'bots.resume'; id: string }
  /** Asks first: `bots.confirmDelete` deletes, `bots.cancel` keeps the bot. */
  | { type: 'bots.delete'; id: string }
  | { type: 'bots.confirmDelete' }
  | BotsFeedEvent;

/** The list and the newest runs of its bots. */
export type BotsLoad = { bots: Bot[]; runs: BotRunsByBot };

export type LoadBotsInput = { userId: string };
/** `id` null creates the bot; otherwise it updates that one. */
export type SaveBotInput = { id: string | null; fields: BotFields };
export type SetBotStatusInput = { id: string; status: BotStatus };
export type DeleteBotInput = { id: string };
export type BotsFeedInput = { userId: string };
