import { appCopy } from '../../copy/index.ts';
import { Page, PageTitle } from './PageLayout.tsx';

/** Spec §2: any tab value that is no tab. */
export function NotFound() {
  return (
    <Page>
      <PageTitle>{appCopy.pageNotFound}</PageTitle>
    </Page>
  );
}
