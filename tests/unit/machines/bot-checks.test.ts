import { describe, expect, it } from 'vitest';
import { botCopy } from '../../../src/copy/bots.ts';
import { EMPTY_BOT_DRAFT, WINDOW_PRESETS, type Bot, type BotDraft } from '../../../src/domain/bots.ts';
import {
  checkDraft,
  draftOf,
  isRuleKind,
  parseDecimal,
  plainDecimal,
  ruleInWords,
  runInWords,
  significant,
  windowInWords,
} from '../../../src/machines/bots/bot-checks.ts';

// The bot form's checks hold to the bounds of the bots table's checks
// (supabase/migrations/20261201000001_market_bots.sql): a draft that passes here is one the
// database takes, and each refusal names its field in the copy's words.

const { problems } = botCopy;
const draft = (fields: Partial<BotDraft>): BotDraft => ({ ...EMPTY_BOT_DRAFT, name: 'Breakout', ...fields });

describe('checkDraft', () => {
  it('saves a price-above bot with a trimmed name and the default cooldown of 15 minutes', () => {
    expect(checkDraft(draft({ name: '  Breakout  ', level: '0.0021' }))).toEqual({
      fields: { name: 'Breakout', rule: { kind: 'priceAbove', level: 0.0021 }, cooldownMinutes: 15 },
    });
  });

  it('saves each kind with only its own values', () => {
    expect(checkDraft(draft({ kind: 'priceBelow', level: '.5', minDdex: 'ignored' }))).toEqual({
      fields: { name: 'Breakout', rule: { kind: 'priceBelow', level: 0.5 }, cooldownMinutes: 15 },
    });
    expect(checkDraft(draft({ kind: 'priceMove', movePct: '5', windowMinutes: '240', level: 'x' }))).toEqual({
      fields: {
        name: 'Breakout',
        rule: { kind: 'priceMove', movePct: 5, windowMinutes: 240 },
        cooldownMinutes: 15,
      },
    });
    expect(checkDraft(draft({ kind: 'largeSwap', minDdex: '10000', cooldownMinutes: '1440' }))).toEqual({
      fields: { name: 'Breakout', rule: { kind: 'largeSwap', minDdex: 10_000 }, cooldownMinutes: 1440 },
    });
  });

  it('refuses every field at once, each in its own words', () => {
    expect(checkDraft({ ...EMPTY_BOT_DRAFT, cooldownMinutes: '0' })).toEqual({
      problems: {
        name: problems.nameMissing,
        level: problems.levelInvalid,
        cooldownMinutes: problems.cooldownInvalid,
      },
    });
  });

  it('takes a name of 1 to 60 characters after trimming, counting an emoji as one', () => {
    expect(checkDraft(draft({ name: '   ', level: '1' }))).toEqual({
      problems: { name: problems.nameMissing },
    });
    expect(checkDraft(draft({ name: ' X ', level: '1' }))).toEqual({
      fields: { name: 'X', rule: { kind: 'priceAbove', level: 1 }, cooldownMinutes: 15 },
    });
    expect('fields' in checkDraft(draft({ name: 'a'.repeat(60), level: '1' }))).toBe(true);
    expect('fields' in checkDraft(draft({ name: `${'a'.repeat(59)}🚀`, level: '1' }))).toBe(true);
    expect(checkDraft(draft({ name: 'a'.repeat(61), level: '1' }))).toEqual({
      problems: { name: problems.nameTooLong },
    });
  });

  it.each(['0', '0.0', '-1', '1e-3', '1,5', 'abc', '', '0x10', 'Infinity', '9'.repeat(400)])(
    'refuses the level %j: a positive plain decimal only',
    (level) => {
      expect(checkDraft(draft({ level }))).toEqual({ problems: { level: problems.levelInvalid } });
      expect(checkDraft(draft({ kind: 'largeSwap', minDdex: level }))).toEqual({
        problems: { minDdex: problems.minDdexInvalid },
      });
    },
  );

  it("takes a large-swap size from the project's floor of 1,000 DDEX up, as the server does", () => {
    const size = (minDdex: string) => checkDraft(draft({ kind: 'largeSwap', minDdex }));
    expect(size('999.99')).toEqual({ problems: { minDdex: problems.minDdexInvalid } });
    expect(size('1000')).toMatchObject({ fields: { rule: { kind: 'largeSwap', minDdex: 1000 } } });
    expect(size('25000.5')).toMatchObject({ fields: { rule: { kind: 'largeSwap', minDdex: 25000.5 } } });
  });

  it('takes a move from 0.1 to 1000 % and nothing outside', () => {
    const move = (movePct: string) => checkDraft(draft({ kind: 'priceMove', movePct }));
    expect('fields' in move('0.1')).toBe(true);
    expect('fields' in move('1000')).toBe(true);
    expect(move('0.09')).toEqual({ problems: { movePct: problems.movePctInvalid } });
    expect(move('1000.01')).toEqual({ problems: { movePct: problems.movePctInvalid } });
  });

  it('takes the window presets only', () => {
    for (const minutes of WINDOW_PRESETS) {
      expect(
        'fields' in checkDraft(draft({ kind: 'priceMove', movePct: '5', windowMinutes: String(minutes) })),
      ).toBe(true);
    }
    for (const windowMinutes of ['45', '60.0', '', '1440 ']) {
      const result = checkDraft(draft({ kind: 'priceMove', movePct: '5', windowMinutes }));
      // A preset with a space around it is still that preset.
      if (windowMinutes === '1440 ') expect('fields' in result).toBe(true);
      else expect(result).toEqual({ problems: { windowMinutes: problems.windowInvalid } });
    }
    expect(checkDraft(draft({ kind: 'priceMove', movePct: '', windowMinutes: '7' }))).toEqual({
      problems: { movePct: problems.movePctInvalid, windowMinutes: problems.windowInvalid },
    });
  });

  it('takes a whole cooldown from 1 to 1440 minutes', () => {
    const cooldown = (cooldownMinutes: string) => checkDraft(draft({ level: '1', cooldownMinutes }));
    expect('fields' in cooldown('1')).toBe(true);
    expect('fields' in cooldown('1440')).toBe(true);
    for (const text of ['0', '1441', '1.5', '-5', '']) {
      expect(cooldown(text)).toEqual({ problems: { cooldownMinutes: problems.cooldownInvalid } });
    }
  });

  it('refuses a kind the form does not offer', () => {
    const odd = { ...draft({ level: '1' }), kind: 'sometimes' } as unknown as BotDraft;
    expect(checkDraft(odd)).toEqual({ problems: { kind: problems.kindInvalid } });
    expect(isRuleKind('sometimes')).toBe(false);
    expect(isRuleKind('priceMove')).toBe(true);
  });
});

describe('draftOf', () => {
  const bot: Bot = {
    id: 'b1',
    name: 'Tiny',
    rule: { kind: 'priceAbove', level: 1e-7 },
    cooldownMinutes: 30,
    status: 'active',
    lastFiredAt: null,
    createdAt: '2026-01-01T00:00:00Z',
  };

  it('opens the form with the bot as it was typed, never in exponent form', () => {
    expect(draftOf(bot)).toEqual({
      ...EMPTY_BOT_DRAFT,
      name: 'Tiny',
      level: '0.0000001',
      cooldownMinutes: '30',
    });
    expect(draftOf({ ...bot, rule: { kind: 'priceMove', movePct: 2.5, windowMinutes: 1440 } })).toEqual({
      ...EMPTY_BOT_DRAFT,
      name: 'Tiny',
      kind: 'priceMove',
      movePct: '2.5',
      windowMinutes: '1440',
      cooldownMinutes: '30',
    });
  });

  it('checks back into the same bot', () => {
    const rules: Bot['rule'][] = [
      { kind: 'priceAbove', level: 0.0021 },
      { kind: 'priceBelow', level: 123456.789 },
      { kind: 'priceMove', movePct: 0.1, windowMinutes: 15 },
      { kind: 'largeSwap', minDdex: 1000.000001 },
    ];
    for (const rule of rules) {
      expect(checkDraft(draftOf({ ...bot, rule }))).toEqual({
        fields: { name: 'Tiny', rule, cooldownMinutes: 30 },
      });
    }
  });
});

describe('words', () => {
  it('says each rule with its numbers as typed and its window as the titles name it', () => {
    const { rules } = botCopy;
    expect(ruleInWords({ kind: 'priceAbove', level: 0.0021 })).toBe(rules.priceAbove('0.0021'));
    expect(ruleInWords({ kind: 'priceBelow', level: 1e-7 })).toBe(rules.priceBelow('0.0000001'));
    expect(ruleInWords({ kind: 'priceMove', movePct: 5, windowMinutes: 60 })).toBe(
      rules.priceMove('5', '1 h'),
    );
    expect(ruleInWords({ kind: 'largeSwap', minDdex: 10_000 })).toBe(rules.largeSwap('10000'));
  });

  it('names the windows as the titles do', () => {
    expect(WINDOW_PRESETS.map(windowInWords)).toEqual(['15 min', '30 min', '1 h', '4 h', '12 h', '24 h']);
    // A window that is not a whole number of hours stays in minutes.
    expect(windowInWords(90)).toBe('90 min');
  });

  it('writes numbers as plain decimals', () => {
    expect([1e-7, 2.5e-18, 1.25e-7, 1e21, 0.0021, 123.45, -1e-7].map(plainDecimal)).toEqual([
      '0.0000001',
      '0.0000000000000000025',
      '0.000000125',
      '1000000000000000000000',
      '0.0021',
      '123.45',
      '-0.0000001',
    ]);
    expect(parseDecimal(' 12.50 ')).toBe(12.5);
    expect(parseDecimal('5.')).toBe(5);
  });

  it('shows a run with six significant digits', () => {
    expect(significant(0.000213456789)).toBe('0.000213457');
    expect(
      runInWords({
        id: 'r1',
        botId: 'b1',
        txHash: `0x${'ab'.repeat(32)}`,
        blockTime: '2026-01-02T00:00:00Z',
        priceBefore: 0.000201,
        priceAfter: 0.00021345678,
        ddexAmount: 1234567.89,
        side: 'sell',
      }),
    ).toEqual({
      price: botCopy.priceChange('0.000201', '0.000213457'),
      swap: botCopy.swapOf('1234570', 'sell'),
    });
  });
});
