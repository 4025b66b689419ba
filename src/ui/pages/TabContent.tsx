import { lazy } from 'react';
import { appCopy } from '../../copy/index.ts';
import { PortalScreen } from '../portal/PortalScreen.tsx';
import { useChildSelector, usePortalSelector, useProfile } from '../portal-context.tsx';
import { LazyTab as Lazy } from './LazyTab.tsx';
import { NotFound } from './NotFound.tsx';

// The page the tab machine is on (docs/product.md#tabs-and-pages). The portal screen is part of the
// main bundle; the other tabs load on first visit, each showing its own
// loading message meanwhile.

const TradingPage = lazy(() => import('./TradingPage.tsx').then((m) => ({ default: m.TradingPage })));
const BotsPage = lazy(() => import('./BotsPage.tsx').then((m) => ({ default: m.BotsPage })));
const FaqPage = lazy(() => import('./FaqPage.tsx').then((m) => ({ default: m.FaqPage })));
const PrivacyPage = lazy(() => import('./PrivacyPage.tsx').then((m) => ({ default: m.PrivacyPage })));
const TermsPage = lazy(() => import('./TermsPage.tsx').then((m) => ({ default: m.TermsPage })));

export function TabContent() {
  const tab = useChildSelector('tab', (snapshot) => snapshot.value);
  const user = usePortalSelector((snapshot) => snapshot.context.user);
  const profile = useProfile();
  const walletAddress = usePortalSelector((snapshot) => snapshot.context.walletAddress);
  switch (tab) {
    case 'portal':
      return <PortalScreen />;
    case 'trading':
      return (
        <Lazy key={tab} message={appCopy.loading.trading}>
          <TradingPage user={user} profile={profile} walletAddress={walletAddress} />
        </Lazy>
      );
    case 'bots':
      return (
        <Lazy key={tab} message={appCopy.loading.bots}>
          <BotsPage user={user} />
        </Lazy>
      );
    case 'faq':
      return (
        <Lazy key={tab} message={appCopy.loading.faq}>
          <FaqPage />
        </Lazy>
      );
    case 'privacy':
      return (
        <Lazy key={tab} message={appCopy.loading.privacy}>
          <PrivacyPage />
        </Lazy>
      );
    case 'terms':
      return (
        <Lazy key={tab} message={appCopy.loading.terms}>
          <TermsPage />
        </Lazy>
      );
    default:
      return <NotFound />;
  }
}
