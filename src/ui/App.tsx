import { lazy, Suspense, useEffect } from 'react';
import styled from 'styled-components';
import { GlobalStyle } from './common/GlobalStyle.tsx';
import type { DevtoolsOptions } from '../devtools/panel/types.ts';
import { Dialogs } from './dialogs/Dialogs.tsx';
import { LocalWalletSlot, LocalWalletViewsProvider, type LocalWalletViews } from './local-wallet/slots.tsx';
import { TabContent } from './pages/TabContent.tsx';
import { PortalProvider, useChild, type PortalActor } from './portal-context.tsx';
import { SettingsProvider, type UiSettings } from './settings-context.tsx';
import { Footer } from './shell/Footer.tsx';
import { Header } from './shell/Header.tsx';
import { theme } from './theme.ts';
import { Toaster } from './toast/Toaster.tsx';

// The developer panel is a chunk of its own, requested only when the composition root passes
// `devtools` (development builds, or `?devtools` in production: src/devtools/panel/gate.ts).
const DevtoolsPanel = lazy(() => import('../devtools/panel/DevtoolsPanel.tsx'));

type AppProps = {
  portal: PortalActor;
  settings: UiSettings;
  devtools?: DevtoolsOptions | null;
  /** When hydrating the prerendered HTML: the never-started portal it shows (src/app/boot.ts). */
  prerendered?: PortalActor | null;
  /** The local test wallet's views, lazily loaded, in a build for the local chain only. */
  localWalletViews?: LocalWalletViews | null;
};

// The page: header, the current tab, footer, the toast and the dialogs.
export function App({
  portal,
  settings,
  devtools = null,
  prerendered = null,
  localWalletViews = null,
}: AppProps) {
  return (
    <PortalProvider portal={portal} prerendered={prerendered}>
      <SettingsProvider settings={settings}>
        <LocalWalletViewsProvider value={localWalletViews}>
          <GlobalStyle />
          <ThemeSync />
          <Layout>
            <Header />
            <Main id="main">
              <TabContent />
            </Main>
            <Footer />
          </Layout>
          <Dialogs />
          <LocalWalletSlot part="Dialog" />
          <Toaster />
          {devtools ? (
            <Suspense fallback={null}>
              <DevtoolsPanel {...devtools} />
            </Suspense>
          ) : null}
        </LocalWalletViewsProvider>
      </SettingsProvider>
    </PortalProvider>
  );
}

/**
 * Mirrors the theme machine onto <html data-theme>, which the colours hang off. It follows the live
 * actor, never the prerendered snapshot hydration renders, which would paint a dark page light.
 */
function ThemeSync() {
  const themeActor = useChild('theme');
  useEffect(() => {
    const apply = (snapshot: ReturnType<typeof themeActor.getSnapshot>) => {
      document.documentElement.dataset.theme = snapshot.matches('dark') ? 'dark' : 'light';
    };
    apply(themeActor.getSnapshot());
    const subscription = themeActor.subscribe(apply);
    return () => subscription.unsubscribe();
  }, [themeActor]);
  return null;
}

const Layout = styled.div`
  display: flex;
  flex-direction: column;
  min-height: 100vh;
`;

// At least a screen high, so the footer starts below the fold: the first screen's content changes
// height as a session is read or a wallet connects, and a footer on screen would be pushed about.
const Main = styled.main`
  flex: 1;
  min-height: 100vh;
  width: min(960px, 100%);
  margin: 0 auto;
  padding: ${theme.space(6)} ${theme.space(4)};
  ${theme.phone} {
    padding: ${theme.space(4)} ${theme.space(3)};
  }
`;
