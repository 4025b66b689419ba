import {
  atLeast,
  atMost,
  CLS_GOAL,
  ms,
  NOT_MEASURED,
  shift,
  verdictText,
  type GoalRow,
  type Verdict,
} from './verdicts.ts';

// The portal's goals on a phone (docs/benchmarks.md), part of bench/lib/goals.ts: Lighthouse's
// mobile preset on the visitor screen beside the bare page, a returning signed-in user and the DEX
// Trading tab (bench/lib/lighthouse.ts), layout shift of a signed-in user and of a 360 px phone, and
// a phone's tap on Connect Wallet (bench/lib/phone.ts). Pure, like goals.ts.

/** Lighthouse scores out of 100: at least these. */
export const PHONE_PERFORMANCE_GOAL = 99;
export const PHONE_TRADING_PERFORMANCE_GOAL = 90;
export const PHONE_ACCESSIBILITY_GOAL = 100;
export const PHONE_BEST_PRACTICES_GOAL = 100;
/** The visitor screen's total blocking time under Lighthouse's mobile preset: at most this. */
export const PHONE_TBT_GOAL_MS = 50;
/** A phone's tap on Connect Wallet handled within this of the button's first paint. */
export const PHONE_TAP_GOAL_MS = 100;

/** One page's Lighthouse figures, medians of its runs: scores out of 100, times in ms; NaN when not taken. */
export type LighthouseFigures = {
  performance: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  accessibility: number;
  bestPractices: number;
};

/** The phone's part of what one run measured (goals.ts's Measured). */
export type PhoneMeasured = {
  /**
   * Lighthouse's mobile preset: runs per page, and the medians of the visitor screen, the bare page,
   * a returning signed-in user and the DEX Trading tab (a timespan: no paint figures of its own).
   */
  lighthouse: {
    runs: number;
    visitor: LighthouseFigures;
    bare: LighthouseFigures;
    signedIn: LighthouseFigures;
    trading: LighthouseFigures;
  };
  /** Cold visits behind each Playwright figure below (the tap is their median, layout shift their p75). */
  phoneRuns: number;
  /** Layout shift of a returning signed-in user's cold visit, until the signed-in screen is settled. */
  clsSignedIn: number;
  /** Layout shift of a cold visit on a 360 px wide phone, up to a connected portal with both balances. */
  clsPhone: number;
  /** Phone profile: from the wallet button's first paint to the wallet receiving eth_requestAccounts. */
  phoneTap: number;
  /** The same, from the moment the button is enabled (the click's own handling); no goal. */
  phoneTapFromEnabled: number;
};

export const PHONE_GOAL_IDS = [
  'phonePerformance',
  'phoneFcp',
  'phoneLcp',
  'phoneTbt',
  'phoneAccessibility',
  'phoneBestPractices',
  'phoneSignedIn',
  'phoneTrading',
  'clsSignedIn',
  'clsPhone',
  'phoneTap',
] as const;
export type PhoneGoalId = (typeof PHONE_GOAL_IDS)[number];

export function phoneVerdicts(m: PhoneMeasured): Record<PhoneGoalId, Verdict> {
  const { visitor, bare, signedIn, trading } = m.lighthouse;
  return {
    phonePerformance: atLeast(visitor.performance, PHONE_PERFORMANCE_GOAL),
    // Held to the bare page's own figure from the same rounds, not to a fixed time.
    phoneFcp: atMost(visitor.fcp, bare.fcp),
    phoneLcp: atMost(visitor.lcp, bare.lcp),
    phoneTbt: atMost(visitor.tbt, PHONE_TBT_GOAL_MS),
    phoneAccessibility: atLeast(visitor.accessibility, PHONE_ACCESSIBILITY_GOAL),
    phoneBestPractices: atLeast(visitor.bestPractices, PHONE_BEST_PRACTICES_GOAL),
    phoneSignedIn: atLeast(signedIn.performance, PHONE_PERFORMANCE_GOAL),
    phoneTrading: atLeast(trading.performance, PHONE_TRADING_PERFORMANCE_GOAL),
    clsSignedIn: atMost(m.clsSignedIn, CLS_GOAL),
    clsPhone: atMost(m.clsPhone, CLS_GOAL),
    phoneTap: atMost(m.phoneTap, PHONE_TAP_GOAL_MS),
  };
}

const score = (value: number) => (Number.isFinite(value) ? String(Math.round(value)) : NOT_MEASURED);

/** A page's other Lighthouse figures, beside its performance score. */
function others(page: LighthouseFigures): string {
  const paints = Number.isFinite(page.fcp) ? `FCP ${ms(page.fcp)}, LCP ${ms(page.lcp)}, ` : '';
  return (
    `${paints}TBT ${ms(page.tbt)}, CLS ${shift(page.cls)}; ` +
    `accessibility ${score(page.accessibility)}, best practices ${score(page.bestPractices)}`
  );
}

/** The phone's rows of the table, after the desktop's. */
export function phoneRows(m: PhoneMeasured): GoalRow[] {
  const verdict = phoneVerdicts(m);
  const row = (measure: string, portal: string, bare: string, goal: string, id: PhoneGoalId | null) => ({
    measure,
    portal,
    bare,
    goal,
    verdict: id === null ? '—' : verdictText(verdict[id]),
  });
  const { runs, visitor, bare, signedIn, trading } = m.lighthouse;
  const visitorScreen = 'Phone, visitor screen (Lighthouse mobile preset';
  return [
    row(
      `${visitorScreen}, median of ${runs} runs): performance score`,
      score(visitor.performance),
      score(bare.performance),
      `≥ ${PHONE_PERFORMANCE_GOAL}`,
      'phonePerformance',
    ),
    row(
      `${visitorScreen}): first contentful paint`,
      ms(visitor.fcp),
      ms(bare.fcp),
      '≤ the bare page',
      'phoneFcp',
    ),
    row(
      `${visitorScreen}): largest contentful paint`,
      ms(visitor.lcp),
      ms(bare.lcp),
      '≤ the bare page',
      'phoneLcp',
    ),
    row(
      `${visitorScreen}): total blocking time`,
      ms(visitor.tbt),
      ms(bare.tbt),
      `≤ ${PHONE_TBT_GOAL_MS} ms`,
      'phoneTbt',
    ),
    row(`${visitorScreen}): cumulative layout shift`, shift(visitor.cls), shift(bare.cls), '—', null),
    row(
      `${visitorScreen}): accessibility score`,
      score(visitor.accessibility),
      score(bare.accessibility),
      `${PHONE_ACCESSIBILITY_GOAL}`,
      'phoneAccessibility',
    ),
    row(
      `${visitorScreen}): best practices score`,
      score(visitor.bestPractices),
      score(bare.bestPractices),
      `${PHONE_BEST_PRACTICES_GOAL}`,
      'phoneBestPractices',
    ),
    row(
      `Phone, returning signed-in user (Lighthouse mobile preset, median of ${runs} runs): performance score`,
      `${score(signedIn.performance)} (${others(signedIn)})`,
      '—',
      `≥ ${PHONE_PERFORMANCE_GOAL}`,
      'phoneSignedIn',
    ),
    row(
      `Phone, DEX Trading tab (Lighthouse timespan from the tap to the market shown, median of ${runs} runs): performance score`,
      `${score(trading.performance)} (${others(trading)})`,
      '—',
      `≥ ${PHONE_TRADING_PERFORMANCE_GOAL}`,
      'phoneTrading',
    ),
    row(
      `Cumulative layout shift, returning signed-in user, to the settled signed-in screen (p75 of ${m.phoneRuns} cold visits)`,
      shift(m.clsSignedIn),
      '—',
      `≤ ${CLS_GOAL}`,
      'clsSignedIn',
    ),
    row(
      `Cumulative layout shift, 360 px phone, first paint to a connected portal with balances (p75 of ${m.phoneRuns} cold visits)`,
      shift(m.clsPhone),
      '—',
      `≤ ${CLS_GOAL}`,
      'clsPhone',
    ),
    row(
      `Phone tap: wallet button’s first paint → Connect Wallet click handled (360 px, 4× CPU, slow 4G; median of ${m.phoneRuns} cold visits)`,
      `${ms(m.phoneTap)} (${ms(m.phoneTapFromEnabled)} of it after the button was enabled)`,
      '—',
      `≤ ${PHONE_TAP_GOAL_MS} ms`,
      'phoneTap',
    ),
  ];
}
