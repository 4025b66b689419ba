import { Component, type ErrorInfo, type ReactNode } from 'react';

type Props = { fallback: ReactNode; children: ReactNode };

/**
 * Around a lazily loaded part of the page (a tab, a dialog, the user menu). When its code cannot
 * be fetched (offline, or a deploy replaced the chunk), React would otherwise unmount the whole
 * portal; this shows `fallback` in that part's place and leaves the rest working. React.lazy keeps
 * the failed import, so the part comes back with a reload.
 */
export class ChunkBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('[portal] a part of the page could not be loaded:', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
