import styled from 'styled-components';
import type { ProseSection } from '../../copy/index.ts';
import { Card } from '../common/Card.tsx';
import { useSettings } from '../settings-context.tsx';
import { Lead, Page, PageTitle, Paragraph, SectionTitle } from './PageLayout.tsx';
import { theme } from '../theme.ts';

// A page of headed sections of plain text (FAQ, Privacy Policy, Terms of
// Service), ending with the contact address from the configuration.

type Props = {
  title: string;
  intro: string;
  sections: readonly ProseSection[];
  /** The sentence before the contact address, e.g. 'Anything else? Write to'. */
  contactLead: string;
};

export function ProsePage({ title, intro, sections, contactLead }: Props) {
  const { contactEmail } = useSettings();
  return (
    <Page>
      <header>
        <PageTitle>{title}</PageTitle>
      </header>
      <Lead>{intro}</Lead>
      <Sections>
        {sections.map((section) => (
          <section key={section.heading}>
            <SectionTitle>{section.heading}</SectionTitle>
            {section.paragraphs.map((paragraph) => (
              <Paragraph key={paragraph}>{paragraph}</Paragraph>
            ))}
          </section>
        ))}
      </Sections>
      <Paragraph>
        {contactLead} <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
      </Paragraph>
    </Page>
  );
}

const Sections = styled(Card).attrs({ as: 'div' })`
  display: grid;
  gap: ${theme.space(6)};
`;
