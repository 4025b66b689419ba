import { describe, expect, it } from 'vitest';
import { isTab, tabMachine, tabs, type TabFact } from '../../../src/machines/tab.machine.ts';
import { machineHarness } from '../../support/machines/harness.ts';

function start() {
  return machineHarness(tabMachine).actor;
}

/** The tab machine under a root that records what it reports (the real root starts the tabs' actors on it). */
function withReports() {
  const h = machineHarness(tabMachine);
  return { actor: h.actor, reported: h.facts as TabFact[] };
}

describe('tab machine', () => {
  it('reports each tab shown to the root, and null for the not-found page', () => {
    const { actor, reported } = withReports();
    for (const tab of ['trading', 'bots', 'trading', 'wallets', 'portal'])
      actor.send({ type: 'tab.select', tab });
    expect(reported).toEqual([
      { type: 'tab.shown', tab: 'trading' },
      { type: 'tab.shown', tab: 'bots' },
      { type: 'tab.shown', tab: 'trading' },
      { type: 'tab.shown', tab: null },
      { type: 'tab.shown', tab: 'portal' },
    ]);
  });

  it('opens on the Token Portal', () => {
    const snapshot = start().getSnapshot();
    expect(snapshot.value).toBe('portal');
    expect(snapshot.context.requested).toBe('portal');
  });

  it('has one state per tab of the spec, and the not-found page', () => {
    expect(tabs).toEqual(['portal', 'trading', 'bots', 'faq', 'privacy', 'terms']);
    expect(Object.keys(tabMachine.root.states)).toEqual([...tabs, 'notFound']);
  });

  it.each(tabs)('switches to %s and back to the portal', (tab) => {
    const actor = start();
    actor.send({ type: 'tab.select', tab });
    expect(actor.getSnapshot().value).toBe(tab);
    expect(actor.getSnapshot().context.requested).toBe(tab);
    actor.send({ type: 'tab.select', tab: 'portal' });
    expect(actor.getSnapshot().value).toBe('portal');
  });

  it('reaches the menu shortcuts (bots, faq, privacy, terms) from any tab with the same event', () => {
    const actor = start();
    actor.send({ type: 'tab.select', tab: 'trading' });
    for (const tab of ['bots', 'faq', 'privacy', 'terms'] as const) {
      actor.send({ type: 'tab.select', tab });
      expect(actor.getSnapshot().value).toBe(tab);
    }
  });

  it.each(['wallets', 'Portal', '', 'portal '])(
    'shows the not-found page for %j and keeps the value',
    (value) => {
      const actor = start();
      actor.send({ type: 'tab.select', tab: value });
      expect(actor.getSnapshot().value).toBe('notFound');
      expect(actor.getSnapshot().context.requested).toBe(value);
    },
  );

  it('leaves the not-found page for a real tab', () => {
    const actor = start();
    actor.send({ type: 'tab.select', tab: 'nowhere' });
    actor.send({ type: 'tab.select', tab: 'faq' });
    expect(actor.getSnapshot().value).toBe('faq');
    expect(actor.getSnapshot().context.requested).toBe('faq');
  });

  it('tells tabs from other values', () => {
    expect(tabs.every(isTab)).toBe(true);
    expect(isTab('notFound')).toBe(false);
    expect(isTab('toString')).toBe(false);
  });
});
