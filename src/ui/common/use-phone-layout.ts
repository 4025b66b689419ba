import { useSyncExternalStore } from 'react';
import { PHONE_QUERY } from '../theme.ts';

/**
 * Whether the page is laid out for a phone (theme.phone's width), followed as the window is
 * resized or the phone turned: for what a view leaves out or folds there, not only restyles.
 */
export function usePhoneLayout(): boolean {
  return useSyncExternalStore(watchWidth, () => window.matchMedia(PHONE_QUERY).matches, wideBeforeHydration);
}

function watchWidth(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The prerendered page knows no width: it is the wide layout until the browser says otherwise. */
const wideBeforeHydration = () => false;
