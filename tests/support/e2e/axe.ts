import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

// axe-core on what the page shows now (a screen, or a screen with a dialog
// open). Only serious and critical violations are returned, each reduced to
// what a failing `expect(...).toEqual([])` needs to say.

export type AxeFinding = {
  /** The caller's name for the screen, e.g. 'portal, dark'. */
  label: string;
  rule: string;
  impact: 'serious' | 'critical';
  help: string;
  /** CSS selectors of the offending elements (at most five). */
  targets: string[];
  /** axe's summary for the first offending element. */
  summary: string;
};

export type AxeOptions = {
  /** Check only this part of the page, e.g. '[role="dialog"]'. */
  include?: string;
  exclude?: string[];
};

export async function runAxe(page: Page, label: string, options: AxeOptions = {}): Promise<AxeFinding[]> {
  let builder = new AxeBuilder({ page });
  if (options.include) builder = builder.include(options.include);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const results = await builder.analyze();
  return results.violations.flatMap((violation) =>
    violation.impact === 'serious' || violation.impact === 'critical'
      ? [
          {
            label,
            rule: violation.id,
            impact: violation.impact,
            help: violation.help,
            targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
            summary: violation.nodes[0]?.failureSummary ?? '',
          },
        ]
      : [],
  );
}
