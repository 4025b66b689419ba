import { botCopy } from '../../copy/bots.ts';
import {
  BOT_BOUNDS,
  BOT_RULE_KINDS,
  EMPTY_BOT_DRAFT,
  WINDOW_PRESETS,
  type Bot,
  type BotDraft,
  type BotDraftField,
  type BotFields,
  type BotRule,
  type BotRun,
  type WindowMinutes,
} from '../../domain/bots.ts';

// The bot form's checks and a bot's words (docs/product.md#trading-bots): pure functions the bots
// machine's guards use and the views read, so both judge a form alike. The bounds are those of the
// `bots` table's checks (src/domain/bots.ts), so what passes here the database takes.

/** The words refusing each field of a draft; a field that passes has none. */
export type DraftProblems = Partial<Record<BotDraftField, string>>;

export type DraftCheck = { fields: BotFields } | { problems: DraftProblems };

/** Digits with an optional fraction ('12', '0.5', '.5', '5.'): no sign, no exponent, no grouping. */
const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;
const WHOLE = /^\d+$/;

/** The number a decimal text stands for, or null when it is none (or too large to be a number). */
export function parseDecimal(text: string): number | null {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

const positive = (text: string): number | null => {
  const value = parseDecimal(text);
  return value !== null && value > 0 ? value : null;
};

const within = (value: number | null, bounds: { min: number; max: number }): number | null =>
  value !== null && value >= bounds.min && value <= bounds.max ? value : null;

const wholeWithin = (text: string, bounds: { min: number; max: number }): number | null =>
  WHOLE.test(text.trim()) ? within(Number(text.trim()), bounds) : null;

const isWindow = (value: number | null): value is WindowMinutes =>
  (WINDOW_PRESETS as readonly number[]).includes(value ?? -1);

/** Postgres counts a name's characters as code points, as the spread does (an emoji is one). */
const nameLength = (name: string): number => [...name].length;

/** The rule of the draft's kind, or the problems of that kind's fields. */
function ruleOf(draft: BotDraft): { rule: BotRule } | { problems: DraftProblems } {
  const { problems } = botCopy;
  switch (draft.kind) {
    case 'priceAbove':
    case 'priceBelow': {
      const level = positive(draft.level);
      return level === null
        ? { problems: { level: problems.levelInvalid } }
        : { rule: { kind: draft.kind, level } };
    }
    case 'priceMove': {
      const movePct = within(parseDecimal(draft.movePct), BOT_BOUNDS.movePct);
      const window = WHOLE.test(draft.windowMinutes.trim()) ? Number(draft.windowMinutes.trim()) : null;
      if (movePct !== null && isWindow(window)) {
        return { rule: { kind: 'priceMove', movePct, windowMinutes: window } };
      }
      return {
        problems: {
          ...(movePct === null ? { movePct: problems.movePctInvalid } : {}),
          ...(isWindow(window) ? {} : { windowMinutes: problems.windowInvalid }),
        },
      };
    }
    case 'largeSwap': {
      const minDdex = positive(draft.minDdex);
      return minDdex === null || minDdex < BOT_BOUNDS.minDdex.min
        ? { problems: { minDdex: problems.minDdexInvalid } }
        : { rule: { kind: 'largeSwap', minDdex } };
    }
    default:
      // A kind the form does not offer (a view or a replay sending something else).
      return { problems: { kind: problems.kindInvalid } };
  }
}

/** Checks every field the draft's kind reads: the bot to save, or the words for each field refused. */
export function checkDraft(draft: BotDraft): DraftCheck {
  const name = draft.name.trim();
  const problems: DraftProblems = {};
  if (nameLength(name) < BOT_BOUNDS.name.min) problems.name = botCopy.problems.nameMissing;
  else if (nameLength(name) > BOT_BOUNDS.name.max) problems.name = botCopy.problems.nameTooLong;
  const rule = ruleOf(draft);
  if ('problems' in rule) Object.assign(problems, rule.problems);
  const cooldownMinutes = wholeWithin(draft.cooldownMinutes, BOT_BOUNDS.cooldownMinutes);
  if (cooldownMinutes === null) problems.cooldownMinutes = botCopy.problems.cooldownInvalid;
  if ('rule' in rule && cooldownMinutes !== null && Object.keys(problems).length === 0) {
    return { fields: { name, rule: rule.rule, cooldownMinutes } };
  }
  return { problems };
}

/** The bot as the form shows it for editing; the fields of other kinds keep the new form's values. */
export function draftOf(bot: Bot): BotDraft {
  const draft: BotDraft = {
    ...EMPTY_BOT_DRAFT,
    name: bot.name,
    kind: bot.rule.kind,
    cooldownMinutes: String(bot.cooldownMinutes),
  };
  switch (bot.rule.kind) {
    case 'priceAbove':
    case 'priceBelow':
      return { ...draft, level: plainDecimal(bot.rule.level) };
    case 'priceMove':
      return {
        ...draft,
        movePct: plainDecimal(bot.rule.movePct),
        windowMinutes: String(bot.rule.windowMinutes),
      };
    case 'largeSwap':
      return { ...draft, minDdex: plainDecimal(bot.rule.minDdex) };
  }
}

/** Whether a text is one of the rule kinds (a `<select>`'s value). */
export const isRuleKind = (value: string): value is BotDraft['kind'] =>
  (BOT_RULE_KINDS as readonly string[]).includes(value);

/**
 * A number as plain decimal text, never in exponent form ('1e-7' → '0.0000001'), with the
 * shortest digits that read back as the same number (what the user typed, for a value they set).
 */
export function plainDecimal(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign = '', lead = '', fraction = '', exponent = '0'] = match;
  const digits = lead + fraction;
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Six significant digits, as the notifications word a run's prices ('0.000213457'). */
export const significant = (value: number): string => plainDecimal(Number(value.toPrecision(6)));

/** A window as the notification titles say it: '15 min', '1 h', '24 h'. */
export const windowInWords = (minutes: number): string =>
  minutes < 60 || minutes % 60 !== 0 ? botCopy.minutes(minutes) : botCopy.hours(minutes / 60);

/** A bot's rule in a sentence: 'When DDEX rises above 0.0021 ETH'. */
export function ruleInWords(rule: BotRule): string {
  switch (rule.kind) {
    case 'priceAbove':
      return botCopy.rules.priceAbove(plainDecimal(rule.level));
    case 'priceBelow':
      return botCopy.rules.priceBelow(plainDecimal(rule.level));
    case 'priceMove':
      return botCopy.rules.priceMove(plainDecimal(rule.movePct), windowInWords(rule.windowMinutes));
    case 'largeSwap':
      return botCopy.rules.largeSwap(plainDecimal(rule.minDdex));
  }
}

/** A run as its row shows it: the price before → after, and the swap's size and side. */
export function runInWords(run: BotRun): { price: string; swap: string } {
  return {
    price: botCopy.priceChange(significant(run.priceBefore), significant(run.priceAfter)),
    swap: botCopy.swapOf(significant(run.ddexAmount), run.side),
  };
}
