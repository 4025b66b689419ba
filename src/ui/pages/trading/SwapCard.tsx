import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import styled from 'styled-components';
import { dexCopy } from '../../../copy/dex.ts';
import { swapTags, type swapMachine } from '../../../machines/trading/swap.machine.ts';
import { Button } from '../../common/Button.tsx';
import { Card } from '../../common/Card.tsx';
import { useChild } from '../../portal-context.tsx';
import { useSettings } from '../../settings-context.tsx';
import { HighSlippageQuestion } from './HighSlippageQuestion.tsx';
import { CardTitle, Muted, TransactionHash, Warning } from './parts.tsx';
import { SwapFields } from './SwapFields.tsx';
import { SwapOutcome } from './SwapOutcome.tsx';
import { swapButton, swapOutcome } from './swap-view.ts';
import { theme } from '../../theme.ts';

type Props = { swap: ActorRefFrom<typeof swapMachine>; feeBps: number | null };

/**
 * The swap card (docs/product.md#dex-trading): the form, its one button worded by the swap
 * machine's state (or, for a slippage tolerance above 5 %, the question asked before the wallet),
 * the hash while a transaction is pending, and a swap's outcome in its place until dismissed. The
 * outcome's region is always in the page, so a screen reader hears it arrive.
 */
export function SwapCard({ swap, feeBps }: Props) {
  const wallet = useChild('wallet');
  const { chainName } = useSettings();
  const button = useSelector(swap, (snapshot) => swapButton(snapshot, chainName), sameButton);
  const outcome = useSelector(swap, swapOutcome);
  const confirming = useSelector(swap, (snapshot) => snapshot.matches('confirmingHighSlippage'));
  const problem = useSelector(swap, (snapshot) =>
    snapshot.matches({ form: 'insufficientLiquidity' })
      ? dexCopy.insufficientLiquidity
      : snapshot.matches('form')
        ? snapshot.context.problem
        : null,
  );
  const needsApproval = useSelector(swap, (snapshot) =>
    snapshot.matches({ form: { quoted: 'needsApproval' } }),
  );
  const pendingHash = useSelector(swap, (snapshot) =>
    snapshot.hasTag(swapTags.pending) ? snapshot.context.hash : null,
  );

  const press = () => {
    const action = button?.action;
    if (action === 'wallet.connect' || action === 'wallet.switchNetwork') wallet.send({ type: action });
    else if (action) swap.send({ type: action });
  };

  return (
    <Card aria-labelledby="swap-title">
      <CardTitle id="swap-title">{dexCopy.swapTitle}</CardTitle>
      <div aria-live="polite">{outcome ? <SwapOutcome swap={swap} outcome={outcome} /> : null}</div>
      {outcome || !(button || confirming) ? null : (
        <>
          <SwapFields swap={swap} feeBps={feeBps} />
          {problem ? <Warning>{problem}</Warning> : null}
          {needsApproval ? <Muted>{dexCopy.needsApproval}</Muted> : null}
          {confirming ? <HighSlippageQuestion swap={swap} /> : null}
          {button ? (
            <Button
              type="button"
              $block
              disabled={button.action === null}
              aria-busy={button.busy}
              onClick={press}
            >
              {button.label}
            </Button>
          ) : null}
          <Pending aria-live="polite">{pendingHash ? <TransactionHash hash={pendingHash} /> : null}</Pending>
        </>
      )}
    </Card>
  );
}

const sameButton = (a: ReturnType<typeof swapButton>, b: ReturnType<typeof swapButton>) =>
  a?.label === b?.label && a?.action === b?.action && a?.busy === b?.busy;

const Pending = styled.div`
  margin-top: ${theme.space(3)};
`;
