import { useSelector } from '@xstate/react';
import { dexCopy } from '../../../copy/dex.ts';
import { shellCopy } from '../../../copy/index.ts';
import type { TradingActor } from '../../portal-context.tsx';
import { useTabActor } from '../../portal-context.tsx';
import { PageLoading } from '../PageLoading.tsx';
import { MarketCard } from './MarketCard.tsx';
import { SwapCard } from './SwapCard.tsx';

/**
 * The DEX Trading tab's market (docs/product.md#dex-trading): the swap card and the market card,
 * views of the trading actor, which the portal runs while this tab is shown.
 */
export function TradingMarket() {
  const { actor, failed } = useTabActor('trading');
  if (failed) return <PageLoading message={shellCopy.partLoadFailed} failed />;
  if (!actor) return <PageLoading message={dexCopy.marketLoading} />;
  return <Cards actor={actor} />;
}

function Cards({ actor }: { actor: TradingActor }) {
  const swap = useSelector(actor, (snapshot) => snapshot.children.swap);
  const market = useSelector(actor, (snapshot) => snapshot.children.market);
  const feeBps = useSelector(market, (snapshot) => snapshot?.context.market?.feeBps ?? null);
  return (
    <>
      {swap ? <SwapCard swap={swap} feeBps={feeBps} /> : null}
      {market ? <MarketCard market={market} /> : null}
    </>
  );
}
