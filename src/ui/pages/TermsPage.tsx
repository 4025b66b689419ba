import { ProsePage } from './ProsePage.tsx';
import { termsCopy } from './terms.copy.ts';

/** The Terms of Service tab (lazily loaded). */
export function TermsPage() {
  return <ProsePage {...termsCopy} />;
}
