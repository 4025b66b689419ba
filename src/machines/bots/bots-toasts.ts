import { botCopy } from '../../copy/bots.ts';
import type { Bot, BotStatus } from '../../domain/bots.ts';
import { messageOf, type ToastRequest } from '../shared.ts';

// The bots machine's toasts (bots.machine.ts): what became of a create, an edit, a pause, a
// resume or a delete, under the bot's name; a failure with what the backend said.

/** The bots service's code for a bot that is gone (deleted in another tab, say). */
const BOT_NOT_FOUND = 'bot_not_found';

const isGone = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === BOT_NOT_FOUND;

const failure = (title: string, error: unknown): ToastRequest => ({
  title,
  description: isGone(error) ? botCopy.botGone : messageOf(error, botCopy.failedFallback),
  variant: 'destructive',
});

export const botsToasts = {
  limitReached: { ...botCopy.limitReached, variant: 'destructive' } satisfies ToastRequest,
  /** A bot saved: `created` when the form made a new one. */
  saved: (bot: Pick<Bot, 'name'>, created: boolean): ToastRequest =>
    created
      ? { title: botCopy.created, description: botCopy.createdDescription(bot.name) }
      : { title: botCopy.saved, description: botCopy.savedDescription(bot.name) },
  saveFailed: (error: unknown, created: boolean): ToastRequest =>
    failure(created ? botCopy.createFailed : botCopy.saveFailed, error),
  /** The status the backend answered with. */
  statusSet: (bot: Pick<Bot, 'name' | 'status'>): ToastRequest =>
    bot.status === 'paused'
      ? { title: botCopy.paused, description: botCopy.pausedDescription(bot.name) }
      : { title: botCopy.resumed, description: botCopy.resumedDescription(bot.name) },
  /** The status asked for was not set. */
  statusFailed: (error: unknown, asked: BotStatus | null): ToastRequest =>
    failure(asked === 'paused' ? botCopy.pauseFailed : botCopy.resumeFailed, error),
  deleted: (name: string): ToastRequest => ({
    title: botCopy.deleted,
    description: botCopy.deletedDescription(name),
  }),
  deleteFailed: (error: unknown): ToastRequest => failure(botCopy.deleteFailed, error),
  refreshFailed: (error: unknown): ToastRequest => failure(botCopy.refreshFailed, error),
};
