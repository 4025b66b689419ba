import { describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter } from '../../stack/gateway/realtime/filters.ts';

describe('postgres_changes filters', () => {
  it('matches rows the way hosted Realtime filters do', () => {
    const row = { user_id: 'abc', amount: 5, title: 'x' };
    const check = (text: string) => {
      const filter = parseFilter(text);
      if (typeof filter === 'string') throw new Error(filter);
      return matchesFilter(filter, row);
    };
    expect(check('user_id=eq.abc')).toBe(true);
    expect(check('user_id=eq.abd')).toBe(false);
    expect(check('user_id=neq.abd')).toBe(true);
    expect(check('amount=gt.4')).toBe(true);
    expect(check('amount=gte.5')).toBe(true);
    expect(check('amount=lt.5')).toBe(false);
    expect(check('amount=lte.10')).toBe(true);
    expect(check('user_id=in.(x,abc)')).toBe(true);
    expect(check('missing=eq.abc')).toBe(false);
  });

  it('passes every row when there is no filter', () => {
    expect(parseFilter(undefined)).toBeNull();
    expect(matchesFilter(null, { a: 1 })).toBe(true);
  });

  it.each([
    ['user_id', 'expected column=operator.value'],
    ['user_id=zz.1', 'unsupported operator "zz"'],
    ['user_id=in.abc', 'in needs a list'],
    ['1col=eq.1', 'expected column=operator.value'],
  ])('explains why %s is refused', (text, reason) => {
    expect(parseFilter(text)).toContain(reason);
  });
});
