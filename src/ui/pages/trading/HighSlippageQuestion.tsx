import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import styled from 'styled-components';
import { dexCopy } from '../../../copy/dex.ts';
import { highSlippageWords } from '../../../machines/trading/swap-checks.ts';
import type { swapMachine } from '../../../machines/trading/swap.machine.ts';
import { Button } from '../../common/Button.tsx';
import { Muted } from './parts.tsx';
import { theme } from '../../theme.ts';

type Props = { swap: ActorRefFrom<typeof swapMachine> };

/**
 * The question 'Swap' asks, in place of the button, when the slippage tolerance is above 5 %
 * (docs/product.md#swap-card): the tolerance and the least output it accepts, then 'Swap anyway'
 * (on to the wallet) or 'Cancel' (back to the form as it was). Nothing is asked of the wallet
 * before the answer.
 */
export function HighSlippageQuestion({ swap }: Props) {
  const context = useSelector(swap, (snapshot) => snapshot.context);
  const { title, description } = highSlippageWords(context);
  const id = useId();
  return (
    <Question role="group" aria-labelledby={`${id}-title`} aria-describedby={`${id}-description`}>
      <Title id={`${id}-title`}>{title}</Title>
      <Muted id={`${id}-description`}>{description}</Muted>
      <Actions>
        <Button type="button" $variant="danger" onClick={() => swap.send({ type: 'swap.confirmSlippage' })}>
          {dexCopy.confirmHighSlippage}
        </Button>
        <Button
          type="button"
          $variant="secondary"
          // The Swap button that was pressed is gone: the keyboard lands on the safe answer.
          autoFocus
          onClick={() => swap.send({ type: 'swap.cancel' })}
        >
          {dexCopy.cancel}
        </Button>
      </Actions>
    </Question>
  );
}

const Question = styled.div`
  padding: ${theme.space(4)};
  border: 1px solid ${theme.color.danger};
  border-radius: ${theme.radius.md};
`;

const Title = styled.h3`
  margin: 0 0 ${theme.space(2)};
  font-size: 1.05rem;
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space(2)};
`;
