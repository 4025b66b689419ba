import type { MutantResult } from '@stryker-mutator/api/core';

// What scripts/mutation.ts reads from Stryker's results beyond the score.

/**
 * Files none of whose mutants any test reached. A machine's tests always reach some of its code, so
 * this means a test file failed to load under Stryker's instrumentation (and loaded no test), as
 * the bots' model test once did: Stryker reports that as "not covered", or, when no test at all
 * loads, as "No tests were executed".
 */
export function unreachedFiles(results: readonly Pick<MutantResult, 'fileName' | 'status'>[]): string[] {
  const reached = new Map<string, boolean>();
  for (const { fileName, status } of results) {
    if (status === 'Ignored' || status === 'CompileError' || status === 'RuntimeError') continue;
    reached.set(fileName, (reached.get(fileName) ?? false) || status !== 'NoCoverage');
  }
  return [...reached].filter(([, any]) => !any).map(([file]) => file);
}
