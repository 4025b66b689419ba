import { privacyCopy } from './privacy.copy.ts';
import { ProsePage } from './ProsePage.tsx';

/** The Privacy Policy tab (lazily loaded). */
export function PrivacyPage() {
  return <ProsePage {...privacyCopy} />;
}
