import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import styled from 'styled-components';
import { dexCopy } from '../../../copy/dex.ts';
import { amountText, assetsOf } from '../../../machines/trading/market-figures.ts';
import type { swapMachine } from '../../../machines/trading/swap.machine.ts';
import { Button } from '../../common/Button.tsx';
import { Figures, Muted, TransactionHash } from './parts.tsx';
import type { swapOutcome } from './swap-view.ts';
import { theme } from '../../theme.ts';

type Props = {
  swap: ActorRefFrom<typeof swapMachine>;
  outcome: NonNullable<ReturnType<typeof swapOutcome>>;
};

const titles = {
  confirmed: dexCopy.swapConfirmed,
  rejected: dexCopy.swapRejected.title,
  reverted: dexCopy.swapReverted,
  failed: dexCopy.swapFailed,
} as const;

/**
 * A swap's outcome, in place of the form until dismissed: mined with the amounts the pair's events
 * report, rejected in the wallet, reverted by the router with its reason in plain words, or failed.
 */
export function SwapOutcome({ swap, outcome }: Props) {
  const { result, problem, hash } = useSelector(swap, (snapshot) => snapshot.context);
  const assets = result ? assetsOf(result.side) : null;
  return (
    <Panel $failed={outcome !== 'confirmed'}>
      <Title>{titles[outcome]}</Title>
      {result && assets ? (
        <Figures>
          <dt>{dexCopy.youPaid}</dt>
          <dd>{amountText(result.amountIn, assets.pays)}</dd>
          <dt>{dexCopy.youReceived}</dt>
          <dd>{amountText(result.amountOut, assets.receives)}</dd>
        </Figures>
      ) : null}
      {outcome === 'rejected' ? <Muted>{dexCopy.swapRejected.description}</Muted> : null}
      {outcome === 'reverted' ? <Muted>{problem ?? dexCopy.reverted}</Muted> : null}
      {outcome === 'failed' ? <Muted>{problem ?? dexCopy.walletFailed}</Muted> : null}
      {hash ? <TransactionHash hash={hash} /> : null}
      <Button type="button" $variant="secondary" onClick={() => swap.send({ type: 'swap.dismiss' })}>
        {outcome === 'confirmed' ? dexCopy.newSwap : dexCopy.backToForm}
      </Button>
    </Panel>
  );
}

const Panel = styled.div<{ $failed: boolean }>`
  margin-bottom: ${theme.space(4)};
  padding: ${theme.space(4)};
  border: 1px solid ${({ $failed }) => ($failed ? theme.color.danger : theme.color.success)};
  border-radius: ${theme.radius.md};
`;

const Title = styled.h3`
  margin: 0 0 ${theme.space(3)};
  font-size: 1.05rem;
`;
