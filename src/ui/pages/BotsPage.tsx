import type { AuthUser } from '../../domain/auth.ts';
import { displayName } from '../../machines/display-name.ts';
import { Button } from '../common/Button.tsx';
import { Card } from '../common/Card.tsx';
import { useChild } from '../portal-context.tsx';
import { botsCopy as copy } from './bots.copy.ts';
import { Notice, Page, PageTitle, Paragraph, SectionTitle } from './PageLayout.tsx';

/** The Trading Bots tab (lazily loaded; it receives the user: docs/product.md#tabs-and-pages). */
export function BotsPage({ user }: { user: AuthUser | null }) {
  const tab = useChild('tab');
  return (
    <Page>
      <PageTitle>{copy.title}</PageTitle>
      <Notice>{copy.unavailable}</Notice>
      <Paragraph>{user ? copy.signedIn(displayName(null, user)) : copy.signedOut}</Paragraph>
      <Card aria-labelledby="bots-instead">
        <SectionTitle id="bots-instead">{copy.closestTitle}</SectionTitle>
        <Paragraph>{copy.closest}</Paragraph>
      </Card>
      <div>
        <Button type="button" onClick={() => tab.send({ type: 'tab.select', tab: 'portal' })}>
          {copy.goToPortal}
        </Button>
      </div>
    </Page>
  );
}
