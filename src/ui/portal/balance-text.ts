import { balanceCopy } from '../../copy/index.ts';
import type { BalanceReading } from '../../machines/balances.machine.ts';

/** What the wallet panel shows for one balance, and whether it is painted in the danger colour. */
export type BalanceText = { text: string; alarm: boolean };

// What each balance reads (docs/product.md#balances): 'Loading...' while loading, 'N/A' when empty,
// red for 'Error' and 'N/A (Config Error)'. The colour follows the reading,
// not the text: a refresh after a failure shows 'Loading...' in red until the
// new reading arrives, as the value it replaces is still 'Error'.
export function balanceText(reading: BalanceReading, loading: boolean): BalanceText {
  return {
    text: loading ? balanceCopy.loading : readingText(reading),
    alarm: reading.status === 'failed' || reading.status === 'notConfigured',
  };
}

function readingText(reading: BalanceReading): string {
  switch (reading.status) {
    case 'loaded':
      return reading.value === '' ? balanceCopy.empty : reading.value;
    case 'failed':
      return balanceCopy.error;
    case 'notConfigured':
      return balanceCopy.configError;
    case 'none':
      return balanceCopy.empty;
  }
}
