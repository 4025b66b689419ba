import { useSettings } from '../settings-context.tsx';
import { faqCopy } from '../../copy/faq.ts';
import { ProsePage } from './ProsePage.tsx';

/** The FAQ tab (lazily loaded): answers about this portal, with the configured network's name. */
export function FaqPage() {
  const { chainName } = useSettings();
  return (
    <ProsePage
      title={faqCopy.title}
      intro={faqCopy.intro}
      sections={faqCopy.sections(chainName)}
      contactLead={faqCopy.contactLead}
    />
  );
}
