import { Suspense, type ReactNode } from 'react';
import { PageLoading } from './PageLoading.tsx';

/** A lazily loaded tab: its loading message until its code has arrived. */
export function LazyTab({ message, children }: { message: string; children: ReactNode }) {
  return <Suspense fallback={<PageLoading message={message} />}>{children}</Suspense>;
}
