import { appCopy } from '../../copy/index.ts';
import { Page, PageTitle } from './PageLayout.tsx';

/** Any tab value that is no tab (docs/product.md#tabs-and-pages). */
export function NotFound() {
  return (
    <Page>
      <PageTitle>{appCopy.pageNotFound}</PageTitle>
    </Page>
  );
}
