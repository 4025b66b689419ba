import { balanceCopy } from '../../copy/index.ts';
import { amountText } from '../common/amount-text.ts';
import type { BalanceReading } from '../../machines/balances.machine.ts';

/**
 * What the wallet panel shows for one balance, whether it is painted in the danger colour, and
 * the exact value (for hover and copy) while a read one is on show.
 */
export type BalanceText = { text: string; alarm: boolean; exact?: string };

// What each balance reads (docs/product.md#balances): the value grouped and cut for reading,
// 'Loading...' while loading, 'N/A' when empty, red for 'Error' and 'N/A (Config Error)'. The
// colour follows the reading, not the text: a refresh after a failure shows 'Loading...' in red
// until the new reading arrives, as the value it replaces is still 'Error'.
export function balanceText(reading: BalanceReading, loading: boolean, locale?: string): BalanceText {
  const alarm = reading.status === 'failed' || reading.status === 'notConfigured';
  if (loading) return { text: balanceCopy.loading, alarm };
  if (reading.status === 'loaded' && reading.value)
    return { text: amountText(reading.value, locale), alarm, exact: reading.value };
  return {
    text:
      reading.status === 'failed'
        ? balanceCopy.error
        : reading.status === 'notConfigured'
          ? balanceCopy.configError
          : balanceCopy.empty,
    alarm,
  };
}
