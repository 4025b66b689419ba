import { useEffect, useState } from 'react';

/** What a lazily loaded tab gives its page: its root actor, and how to stop it. */
export type StartedTab<A> = { actor: A; stop(): void };

export type TabActorState<A> = { actor: A | null; failed: boolean };

/**
 * A tab's actor while the tab is shown: started on mount (its code loads then), stopped on
 * unmount. `failed` when its code could not be fetched.
 */
export function useTabActor<A>(start: () => Promise<StartedTab<A>>): TabActorState<A> {
  const [state, setState] = useState<TabActorState<A>>({ actor: null, failed: false });
  useEffect(() => {
    let running: StartedTab<A> | null = null;
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
