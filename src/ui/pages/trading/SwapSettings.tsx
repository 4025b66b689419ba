import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import styled from 'styled-components';
import { dexCopy } from '../../../copy/dex.ts';
import { slippageRefused, slippageWarning } from '../../../machines/trading/swap-checks.ts';
import type { swapMachine } from '../../../machines/trading/swap.machine.ts';
import { LabelledInput } from './LabelledInput.tsx';
import { Muted, Warning } from './parts.tsx';
import { theme } from '../../theme.ts';

/**
 * The swap's settings: the slippage tolerance (a warning past 1 %, refused past 50 %), the
 * deadline in minutes and, for a sale, whether the approval is unlimited.
 */
export function SwapSettings({ swap }: { swap: ActorRefFrom<typeof swapMachine> }) {
  const form = useSelector(swap, (snapshot) => snapshot.context);
  const open = useSelector(swap, (snapshot) => snapshot.matches('form'));
  return (
    <>
      <Row>
        <LabelledInput
          label={dexCopy.slippageTolerance}
          unit={dexCopy.percentSign}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          disabled={!open}
          value={form.slippageText}
          onChange={(event) => swap.send({ type: 'swap.slippage', text: event.target.value })}
        />
        <LabelledInput
          label={dexCopy.deadline}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          disabled={!open}
          // Uncontrolled: a cleared field is the user's to retype; the machine refuses it meanwhile.
          defaultValue={Number.isFinite(form.deadlineMinutes) ? form.deadlineMinutes : ''}
          onChange={(event) => swap.send({ type: 'swap.deadline', minutes: Number(event.target.value) })}
        />
      </Row>
      {slippageRefused(form) ? (
        <Warning>{dexCopy.slippageRefused}</Warning>
      ) : slippageWarning(form) ? (
        <Warning>{dexCopy.slippageWarning}</Warning>
      ) : null}
      {form.side === 'sell' ? (
        <Unlimited>
          <label>
            <input
              type="checkbox"
              aria-describedby="swap-unlimited-hint"
              disabled={!open}
              checked={form.unlimitedApproval}
              onChange={(event) => swap.send({ type: 'swap.unlimited', on: event.target.checked })}
            />
            {dexCopy.allowUnlimited}
          </label>
          <Muted id="swap-unlimited-hint">{dexCopy.allowUnlimitedHint}</Muted>
        </Unlimited>
      ) : null}
    </>
  );
}

const Row = styled.div`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: ${theme.space(4)};
  ${theme.phone} {
    grid-template-columns: minmax(0, 1fr);
    gap: 0;
  }
`;

const Unlimited = styled.div`
  margin-bottom: ${theme.space(4)};
  label {
    display: inline-flex;
    align-items: center;
    gap: ${theme.space(2)};
    font-weight: 600;
  }
  p {
    margin: ${theme.space(1)} 0 0;
  }
`;
