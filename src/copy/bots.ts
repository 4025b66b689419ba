import { BOT_BOUNDS, MAX_BOTS } from '../domain/bots.ts';
import { appCopy } from './index.ts';

// ours: the Trading Bots tab's words, in a module of their own so that they load with the tab's
// chunk and not with the entry (src/copy/index.ts holds the rest: docs/product.md).

/**
 * ours: the Trading Bots tab (docs/product.md#trading-bots): the list of a user's bots, the bot
 * form and its checks, the runs, and the toasts of creating, saving, pausing, resuming and
 * deleting. Numbers come in already as text (src/machines/bots/bot-checks.ts formats them).
 */
export const botCopy = {
  title: appCopy.tabs.bots,
  /** A portal built without a Supabase project: bots live in its tables and run on its server. */
  unavailable:
    'Trading bots are not available in this portal: it has no backend configured, and bots are kept and run on the backend.',
  /** Why a bot only tells: the portal never holds a key that could sign a trade. */
  watchOnly:
    "Bots watch the DDEX/WETH market and tell you; they never trade, because a trade needs your wallet's signature and the portal never holds your keys.",
  /** A visitor is asked to log in: bots belong to an account. */
  visitorPrompt:
    'Log in to create bots that watch the DDEX/WETH market and notify you, even after you close the portal.',
  logIn: 'Log in',
  /** The list. */
  listTitle: 'Your bots',
  loading: 'Loading your bots...',
  /** While the tab's own code arrives, before it knows whether anybody is signed in. */
  starting: 'Loading bots...',
  loadFailed: 'Your bots could not be loaded.',
  retrying: 'Trying again shortly.',
  retry: 'Try Again',
  empty:
    'You have no bots yet. Create one to be told when the DDEX price crosses a level or moves fast, or when a large swap happens.',
  count: (count: number) => `${count} of ${MAX_BOTS} bots`,
  atLimit: `You have ${MAX_BOTS} bots, the most an account may have. Delete one to create another.`,
  feedLost: 'Live updates are interrupted. Reconnecting...',
  newBot: 'New bot',
  refresh: 'Refresh',
  /** One bot. */
  statuses: { active: 'Active', paused: 'Paused' },
  lastFired: (time: string) => `Last fired ${time}`,
  neverFired: 'Has not fired yet',
  cooldownInWords: (minutes: string) => `Silent for ${minutes} min after it fires`,
  edit: 'Edit',
  pause: 'Pause',
  resume: 'Resume',
  delete: 'Delete',
  /** Asked before a bot is deleted. */
  confirmDeleteTitle: (name: string) => `Delete ${name}?`,
  confirmDeleteDescription: 'The bot and its runs are deleted. The notifications it sent stay.',
  confirmDelete: 'Delete bot',
  deleting: 'Deleting...',
  /** Its runs. */
  runsTitle: 'Recent runs',
  noRuns: 'No runs yet.',
  priceChange: (before: string, after: string) => `${before} → ${after} ETH per DDEX`,
  swapOf: (amount: string, side: 'buy' | 'sell') => `${amount} DDEX ${side === 'buy' ? 'bought' : 'sold'}`,
  viewTransaction: 'View transaction',
  /** The rule in words (ruleInWords). */
  rules: {
    priceAbove: (level: string) => `When DDEX rises above ${level} ETH`,
    priceBelow: (level: string) => `When DDEX falls below ${level} ETH`,
    priceMove: (percent: string, window: string) => `When DDEX moves ${percent} % or more within ${window}`,
    largeSwap: (amount: string) => `When a single swap moves at least ${amount} DDEX`,
  },
  /** A window: '15 min', '1 h'. */
  minutes: (minutes: number) => `${minutes} min`,
  hours: (hours: number) => `${hours} h`,
  /** The form. */
  createTitle: 'New bot',
  editTitle: (name: string) => `Edit ${name}`,
  fields: {
    name: 'Name',
    kind: 'Rule',
    level: 'Price level (ETH per DDEX)',
    movePct: 'Move (%)',
    windowMinutes: 'Within',
    minDdex: 'Swap size (DDEX)',
    cooldownMinutes: 'Cooldown (minutes)',
  },
  kinds: {
    priceAbove: 'Price crosses above a level',
    priceBelow: 'Price crosses below a level',
    priceMove: 'Price moves by a percentage',
    largeSwap: 'A large swap',
  },
  cooldownHint: 'After it fires, the bot stays silent this long.',
  namePlaceholder: 'e.g. DDEX breakout',
  create: 'Create bot',
  save: 'Save',
  cancel: 'Cancel',
  saving: 'Saving...',
  /** The form's checks: the same bounds the database holds to. */
  problems: {
    nameMissing: 'Give the bot a name.',
    nameTooLong: `Use at most ${BOT_BOUNDS.name.max} characters for the name.`,
    kindInvalid: 'Choose one of the rules.',
    levelInvalid: 'Enter the price level as a positive decimal number of ETH, such as 0.0021.',
    movePctInvalid: `Enter the move as a percentage from ${BOT_BOUNDS.movePct.min} to ${BOT_BOUNDS.movePct.max}, such as 5.`,
    windowInvalid: 'Choose one of the windows: 15 min, 30 min, 1 h, 4 h, 12 h or 24 h.',
    minDdexInvalid: `Enter the swap size as a decimal number of DDEX, at least ${BOT_BOUNDS.minDdex.min}, such as 10000.`,
    cooldownInvalid: `Enter the cooldown as a whole number of minutes from ${BOT_BOUNDS.cooldownMinutes.min} to ${BOT_BOUNDS.cooldownMinutes.max}.`,
  },
  /** Toasts: a title, and a description with the bot's name or what went wrong. */
  created: 'Bot Created',
  createdDescription: (name: string) => `${name} is watching the DDEX/WETH market.`,
  saved: 'Bot Saved',
  savedDescription: (name: string) => `${name} watches with its new settings from now on.`,
  paused: 'Bot Paused',
  pausedDescription: (name: string) => `${name} stays silent until you resume it.`,
  resumed: 'Bot Resumed',
  resumedDescription: (name: string) =>
    `${name} is watching again. Swaps mined while it was paused do not count.`,
  deleted: 'Bot Deleted',
  deletedDescription: (name: string) => `${name} and its runs are deleted.`,
  createFailed: 'Bot Not Created',
  saveFailed: 'Bot Not Saved',
  pauseFailed: 'Bot Not Paused',
  resumeFailed: 'Bot Not Resumed',
  deleteFailed: 'Bot Not Deleted',
  refreshFailed: 'Bots Not Refreshed',
  /** The bot was deleted meanwhile, in another tab say. */
  botGone: 'This bot no longer exists: it may have been deleted in another tab.',
  /** A failure that says nothing of its own. */
  failedFallback: 'The backend did not answer. Try again in a moment.',
  limitReached: {
    title: 'Bot Limit Reached',
    description: `An account may have ${MAX_BOTS} bots. Delete one to create another.`,
  },
} as const;
