import { ProsePage } from './ProsePage.tsx';
import { termsCopy } from '../../copy/terms.ts';

/** The Terms of Service tab (lazily loaded). */
export function TermsPage() {
  return <ProsePage {...termsCopy} />;
}
