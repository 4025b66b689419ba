import { privacyCopy } from '../../copy/privacy.ts';
import { ProsePage } from './ProsePage.tsx';

/** The Privacy Policy tab (lazily loaded). */
export function PrivacyPage() {
  return <ProsePage {...privacyCopy} />;
}
