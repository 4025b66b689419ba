import { useSelector } from '@xstate/react';
import styled from 'styled-components';
import { botCopy } from '../../copy/bots.ts';
import { shellCopy } from '../../copy/index.ts';
import type { AuthUser } from '../../domain/auth.ts';
import { botsTags } from '../../machines/bots/bots.machine.ts';
import { Button } from '../common/Button.tsx';
import { Card } from '../common/Card.tsx';
import { useChild, usePortalSelector, useTabActor, type BotsActor } from '../portal-context.tsx';
import { useSettings } from '../settings-context.tsx';
import { BotList } from './bots/BotList.tsx';
import { Lead, Notice, Page, Paragraph, PageTitle } from './PageLayout.tsx';
import { PageLoading } from './PageLoading.tsx';
import { theme } from '../theme.ts';

/**
 * The Trading Bots tab (lazily loaded; it receives the user: docs/product.md#tabs-and-pages): bots
 * that watch the DDEX/WETH market on the server and notify their owner (docs/product.md#trading-bots),
 * views of the bots actor, which the portal runs while this tab is shown. Without a backend it says that
 * there are no bots here.
 */
export function BotsPage({ user }: { user: AuthUser | null }) {
  const { tabs } = useSettings();
  return (
    <Page>
      <PageTitle>{botCopy.title}</PageTitle>
      <Lead>{botCopy.watchOnly}</Lead>
      {tabs.bots ? <BotsTabView signedIn={user !== null} /> : <Notice>{botCopy.unavailable}</Notice>}
    </Page>
  );
}

function BotsTabView({ signedIn }: { signedIn: boolean }) {
  const { actor, failed } = useTabActor('bots');
  if (failed) return <PageLoading message={shellCopy.partLoadFailed} failed />;
  if (!actor) return <PageLoading message={signedIn ? botCopy.loading : botCopy.starting} />;
  return <BotsState actor={actor} />;
}

function BotsState({ actor }: { actor: BotsActor }) {
  const view = useSelector(actor, (snapshot) =>
    snapshot.hasTag(botsTags.signedOut)
      ? 'signedOut'
      : snapshot.hasTag(botsTags.loading)
        ? 'loading'
        : snapshot.hasTag(botsTags.failed)
          ? 'failed'
          : 'list',
  );
  // Until the session is read, a user who is signed in is not yet known to be: no log-in prompt.
  const authReady = usePortalSelector((snapshot) => snapshot.context.authReady);
  switch (view) {
    case 'signedOut':
      return authReady ? <LogInPrompt /> : <PageLoading message={botCopy.starting} />;
    case 'loading':
      return <PageLoading message={botCopy.loading} />;
    case 'failed':
      return (
        <Card role="alert">
          <Paragraph>{botCopy.loadFailed}</Paragraph>
          <Paragraph>{botCopy.retrying}</Paragraph>
          <Button type="button" onClick={() => actor.send({ type: 'bots.retry' })}>
            {botCopy.retry}
          </Button>
        </Card>
      );
    case 'list':
      return <BotList actor={actor} />;
  }
}

/** A visitor: bots belong to an account, so the log-in dialog (as the portal's header opens it). */
function LogInPrompt() {
  const auth = useChild('auth');
  return (
    <Prompt>
      <Paragraph>{botCopy.visitorPrompt}</Paragraph>
      <Button type="button" onClick={() => auth.send({ type: 'auth.open', mode: 'login' })}>
        {botCopy.logIn}
      </Button>
    </Prompt>
  );
}

const Prompt = styled(Card)`
  display: grid;
  justify-items: center;
  gap: ${theme.space(4)};
  text-align: center;
`;
