import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import { faucetCopy } from '../../../copy/faucet.ts';
import { faucetOffered } from '../../../domain/faucet.ts';
import { Button } from '../../common/Button.tsx';
import { useProfile, usePortalSelector, useSelector } from '../../portal-context.tsx';
import { theme } from '../../theme.ts';

// 'Get test DDEX' under the DDEX balance (docs/product.md#faucet), for a signed-in user whose proven
// wallet is the one connected: the faucet pays that wallet only. It shows the faucet machine's
// state: the button, the human check while it is asked for, the button busy while the claim runs.
// On a hosted build, links to public Sepolia ETH faucets sit beside it (the faucet pays ETH for gas
// only on the local chain). Loaded with the balances (late-views-loader.ts).

/** The local chain's build: read by name, so any other build holds none of the local stand-in. */
const LOCAL_BUILD = import.meta.env.VITE_CHAIN_ID === '31337';

const HumanCheck = LOCAL_BUILD
  ? lazy(() => import('./LocalHumanCheck.tsx'))
  : lazy(() => import('./HostedHumanCheck.tsx'));

export function Faucet() {
  const faucet = usePortalSelector((snapshot) => snapshot.context.faucet);
  const address = usePortalSelector((snapshot) => snapshot.context.walletAddress);
  const offered = faucetOffered(useProfile(), address);
  const checking = useSelector(faucet ?? undefined, (snapshot) => snapshot?.matches('checking') ?? false);
  const widget = useSelector(faucet ?? undefined, (snapshot) =>
    snapshot?.matches({ checking: 'ready' }) ? snapshot.context.widget : null,
  );
  const busy = useSelector(faucet ?? undefined, (snapshot) => snapshot?.hasTag('busy') ?? false);
  if (!faucet || !offered) return null;

  return (
    <Block>
      {checking ? (
        <Check role="group" aria-label={faucetCopy.humanCheck.title} aria-busy={!widget}>
          <span>{widget ? faucetCopy.humanCheck.prompt : faucetCopy.humanCheck.loading}</span>
          {widget ? (
            <Suspense fallback={null}>
              <HumanCheck widget={widget} faucet={faucet} />
            </Suspense>
          ) : null}
          <Button type="button" $variant="ghost" onClick={() => faucet.send({ type: 'faucet.cancel' })}>
            {faucetCopy.humanCheck.cancel}
          </Button>
        </Check>
      ) : (
        <Button
          type="button"
          $variant="secondary"
          disabled={busy}
          aria-busy={busy}
          onClick={() => faucet.send({ type: 'faucet.claim' })}
        >
          {busy ? faucetCopy.claiming : faucetCopy.getTestDdex}
        </Button>
      )}
      {LOCAL_BUILD ? null : (
        <Links>
          {faucetCopy.ethFaucets.intro}{' '}
          {faucetCopy.ethFaucets.links.map((link, index) => (
            <span key={link.href}>
              {index > 0 ? ' · ' : null}
              <a href={link.href} target="_blank" rel="noopener noreferrer">
                {link.label}
              </a>
            </span>
          ))}
        </Links>
      )}
    </Block>
  );
}

const Block = styled.div`
  display: grid;
  gap: ${theme.space(2)};
  justify-items: start;
`;

const Check = styled.div`
  display: grid;
  gap: ${theme.space(2)};
  justify-items: start;
  font-size: 0.9rem;
`;

const Links = styled.p`
  margin: 0;
  font-size: 0.85rem;
  color: ${theme.color.textMuted};
  a {
    color: inherit;
  }
`;
