import { useSelector } from '@xstate/react';
import { lazy, Suspense, useMemo } from 'react';
import styled from 'styled-components';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { dexCopy } from '../../../copy/dex.ts';
import { chartSeries, marketFigures } from '../../../machines/trading/market-figures.ts';
import type { marketMachine } from '../../../machines/trading/market.machine.ts';
import { Button } from '../../common/Button.tsx';
import { Card } from '../../common/Card.tsx';
import { CardTitle, Figures, Muted, SubTitle, Warning } from './parts.tsx';
import { TradesTable } from './TradesTable.tsx';

// The chart library is the tab's largest part: it loads after the rest, and its text stands in meanwhile.
const PriceChart = lazy(() => import('./PriceChart.tsx'));

/**
 * The market card (docs/product.md#dex-trading): the pool's reserves, its price both ways, the
 * price chart and the last trades, followed block by block. Anyone sees it, with or without a wallet.
 */
export function MarketCard({ market }: { market: ActorRefFrom<typeof marketMachine> }) {
  const status = useSelector(market, marketStatus);
  const { pool, prices, trades, blockNumber, problem } = useSelector(market, (snapshot) => snapshot.context);
  const series = useMemo(() => chartSeries(prices), [prices]);
  const figures = pool ? marketFigures(pool) : null;
  return (
    <Card aria-labelledby="market-title">
      <CardTitle id="market-title">{dexCopy.marketTitle}</CardTitle>
      {status === 'loading' ? <Muted role="status">{dexCopy.marketLoading}</Muted> : null}
      {status === 'failed' ? (
        <div role="alert">
          <Warning>{dexCopy.marketFailed}</Warning>
          <Muted>{problem}</Muted>
          <Muted>{dexCopy.marketRetrying}</Muted>
          <Button type="button" $variant="secondary" onClick={() => market.send({ type: 'market.retry' })}>
            {dexCopy.retry}
          </Button>
        </div>
      ) : null}
      {status === 'unavailable' ? (
        <div role="alert">
          <Warning>{dexCopy.marketUnavailable}</Warning>
          <Muted>{problem}</Muted>
        </div>
      ) : null}
      {status === 'lost' ? <Warning role="status">{dexCopy.marketLost}</Warning> : null}
      {figures ? (
        <>
          {blockNumber === null ? null : <Muted>{dexCopy.atBlock(blockNumber.toString())}</Muted>}
          <Figures>
            <dt>{dexCopy.reserves}</dt>
            <dd>
              {figures.reserveEth}
              <br />
              {figures.reserveToken}
            </dd>
            <dt>{dexCopy.price}</dt>
            <dd>
              {figures.ethPerDdex === null || figures.ddexPerEth === null ? (
                dexCopy.noPrice
              ) : (
                <>
                  {dexCopy.priceOfDdex(figures.ethPerDdex)}
                  <br />
                  {dexCopy.priceOfEth(figures.ddexPerEth)}
                </>
              )}
            </dd>
          </Figures>
          <SubTitle id="chart-title">{dexCopy.chartTitle}</SubTitle>
          {series ? (
            <Chart aria-labelledby="chart-title">
              <Suspense fallback={null}>
                <PriceChart points={series.points} label={dexCopy.chartTitle} describedBy="chart-last" />
              </Suspense>
              <Muted as="figcaption" id="chart-last">
                {dexCopy.lastPrice(series.last)}
              </Muted>
            </Chart>
          ) : (
            <Muted>{dexCopy.chartEmpty}</Muted>
          )}
          <TradesTable trades={trades} />
        </>
      ) : null}
    </Card>
  );
}

type MarketStatus = 'loading' | 'failed' | 'unavailable' | 'lost' | 'live';

function marketStatus(snapshot: SnapshotFrom<typeof marketMachine>): MarketStatus {
  if (snapshot.matches({ live: 'lost' })) return 'lost';
  for (const status of ['loading', 'failed', 'unavailable'] as const) {
    if (snapshot.matches(status)) return status;
  }
  return 'live';
}

const Chart = styled.figure`
  margin: 0;
`;
