import { useEffect, useState } from 'react';
import type { BotsTab } from '../../settings-context.tsx';

export type BotsActor = BotsTab['actor'];

/**
 * The Trading Bots tab's actor while the tab is shown: started on mount (its code loads then), stopped
 * on unmount. `failed` when its code could not be fetched.
 */
export function useBotsTab(start: () => Promise<BotsTab>): { actor: BotsActor | null; failed: boolean } {
  const [state, setState] = useState<{ actor: BotsActor | null; failed: boolean }>({
    actor: null,
    failed: false,
  });
  useEffect(() => {
    let running: BotsTab | null = null;
    let unmounted = false;
    start().then(
      (tab) => {
        // The tab closed while its code was loading: the actor is not needed any more.
        if (unmounted) tab.stop();
        else {
          running = tab;
          setState({ actor: tab.actor, failed: false });
        }
      },
      () => {
        if (!unmounted) setState({ actor: null, failed: true });
      },
    );
    return () => {
      unmounted = true;
      running?.stop();
    };
  }, [start]);
  return state;
}
