import { Suspense, useState, type ReactNode } from 'react';
import { ChunkBoundary } from './ChunkBoundary.tsx';

/**
 * Renders its (lazy) children from the first time `open` is true, and keeps them
 * mounted after, so a dialog's code is fetched only when someone opens it while
 * closing still runs through the dialog itself (focus goes back to its trigger).
 */
export function MountOnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  // Latching during render is React's documented way to derive state from a prop change.
  if (open && !opened) setOpened(true);
  return opened ? (
    <ChunkBoundary fallback={null}>
      <Suspense fallback={null}>{children}</Suspense>
    </ChunkBoundary>
  ) : null;
}
