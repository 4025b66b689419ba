import { describe, expect, it } from 'vitest';
import { unreachedFiles } from '../../scripts/lib/mutation-results.ts';

describe('unreachedFiles', () => {
  it('names a file none of whose mutants a test reached, as when its test file failed to load', () => {
    const results = [
      { fileName: 'src/machines/bots/bots.setup.ts', status: 'NoCoverage' as const },
      { fileName: 'src/machines/bots/bots.setup.ts', status: 'NoCoverage' as const },
      { fileName: 'src/machines/tab.machine.ts', status: 'Killed' as const },
      { fileName: 'src/machines/tab.machine.ts', status: 'NoCoverage' as const },
    ];
    expect(unreachedFiles(results)).toEqual(['src/machines/bots/bots.setup.ts']);
  });

  it('leaves out a file whose mutants are all ignored (static), which no test is meant to reach', () => {
    const results = [
      { fileName: 'src/machines/bots/bots-types.ts', status: 'Ignored' as const },
      { fileName: 'src/machines/theme.machine.ts', status: 'Survived' as const },
    ];
    expect(unreachedFiles(results)).toEqual([]);
  });
});
