import styled from 'styled-components';
import { displayName } from '../../machines/profile/display-name.ts';
import type { AuthUser } from '../../domain/auth.ts';
import type { Profile } from '../../domain/profile.ts';
import { Button } from '../common/Button.tsx';
import { Card } from '../common/Card.tsx';
import { usePhoneLayout } from '../common/use-phone-layout.ts';
import { useChild } from '../portal-context.tsx';
import { useSettings } from '../settings-context.tsx';
import { Notice, Page, PageTitle, Paragraph, SectionTitle } from './PageLayout.tsx';
import { tradingCopy as copy } from '../../copy/trading.ts';
import { TradingMarket } from './trading/TradingMarket.tsx';
import { theme } from '../theme.ts';

type Props = { user: AuthUser | null; profile: Profile | null; walletAddress: string | null };

/**
 * The DEX Trading tab (lazily loaded; it receives the user, the profile and the wallet address:
 * docs/product.md#tabs-and-pages): the DDEX/WETH market, swapped through the wallet
 * (docs/product.md#dex-trading), then the account's context, folded on a phone. Without a
 * configured market it says that there is no trading here.
 */
export function TradingPage({ user, profile, walletAddress }: Props) {
  const { tabs } = useSettings();
  const tab = useChild('tab');
  // With the market above it, a phone folds the context under its title: the account, wallet and
  // network a trader knows already would otherwise take a screen of scrolling below the trades.
  const folded = usePhoneLayout() && tabs.trading;
  const title = <SectionTitle id="trading-context">{copy.contextTitle}</SectionTitle>;
  const facts = <AccountFacts user={user} profile={profile} walletAddress={walletAddress} />;
  return (
    <Page>
      <PageTitle>{copy.title}</PageTitle>
      {tabs.trading ? <TradingMarket /> : <Notice>{copy.unavailable}</Notice>}
      <Card aria-labelledby="trading-context">
        {folded ? (
          <details>
            <Summary>{title}</Summary>
            {facts}
          </details>
        ) : (
          <>
            {title}
            {facts}
          </>
        )}
      </Card>
      {tabs.trading ? null : <Paragraph>{copy.meanwhile}</Paragraph>}
      <div>
        <Button type="button" onClick={() => tab.send({ type: 'tab.select', tab: 'portal' })}>
          {copy.goToPortal}
        </Button>
      </div>
    </Page>
  );
}

/** The account's context: who is logged in, with which wallet, on which network, and their tier. */
function AccountFacts({ user, profile, walletAddress }: Props) {
  const { chainName, tokenConfigured, explorerUrl } = useSettings();
  const lastActivity = profile?.last_dex_activity;
  return (
    <>
      <Facts>
        <dt>{copy.account}</dt>
        <dd>{user ? displayName(profile, user) : copy.notLoggedIn}</dd>
        <dt>{copy.wallet}</dt>
        <dd>
          {walletAddress ? <Address>{walletAddress}</Address> : copy.noWallet}
          {walletAddress && explorerUrl ? (
            <>
              {' '}
              <a href={`${explorerUrl}/address/${walletAddress}`}>{copy.viewInExplorer}</a>
            </>
          ) : null}
        </dd>
        <dt>{copy.network}</dt>
        <dd>{chainName}</dd>
        <dt>{copy.token}</dt>
        <dd>{tokenConfigured ? copy.tokenConfigured : copy.tokenMissing}</dd>
        {profile ? (
          <>
            <dt>{copy.tier}</dt>
            <dd>{profile.account_tier}</dd>
            <dt>{copy.lastActivity}</dt>
            <dd>{lastActivity ? new Date(lastActivity).toLocaleString() : copy.noActivity}</dd>
          </>
        ) : null}
      </Facts>
      {user ? null : <Hint>{copy.loginHint}</Hint>}
    </>
  );
}

/** The folded card's title, its disclosure marker beside it; its facts open below it. */
const Summary = styled.summary`
  cursor: pointer;
  h2 {
    display: inline;
    margin: 0;
  }
  [open] > & {
    margin-bottom: ${theme.space(3)};
  }
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content minmax(0, 1fr);
  gap: ${theme.space(2)} ${theme.space(5)};
  margin: 0;
  dt {
    color: ${theme.color.textMuted};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  ${theme.phone} {
    grid-template-columns: minmax(0, 1fr);
    gap: 0;
    dd {
      margin-bottom: ${theme.space(3)};
    }
  }
`;

const Address = styled.code`
  font-family: ${theme.font.mono};
  font-size: 0.9rem;
`;

const Hint = styled.p`
  margin: ${theme.space(4)} 0 0;
  color: ${theme.color.textMuted};
`;
