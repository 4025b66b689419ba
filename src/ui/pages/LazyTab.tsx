import { Suspense, type ReactNode } from 'react';
import { shellCopy } from '../../copy/index.ts';
import { ChunkBoundary } from '../common/ChunkBoundary.tsx';
import { PageLoading } from './PageLoading.tsx';

/** A lazily loaded tab: its loading message until its code has arrived, a plain reason if it cannot. */
export function LazyTab({ message, children }: { message: string; children: ReactNode }) {
  return (
    <ChunkBoundary fallback={<PageLoading message={shellCopy.partLoadFailed} failed />}>
      <Suspense fallback={<PageLoading message={message} />}>{children}</Suspense>
    </ChunkBoundary>
  );
}
