import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import styled from 'styled-components';
import { dexCopy } from '../../../copy/dex.ts';
import { assetsOf } from '../../../machines/trading/market-figures.ts';
import { balanceText, poolFeeText, quoteFigures } from '../../../machines/trading/swap-checks.ts';
import type { swapMachine } from '../../../machines/trading/swap.machine.ts';
import { LabelledInput } from './LabelledInput.tsx';
import { Figures } from './parts.tsx';
import { SwapSettings } from './SwapSettings.tsx';
import { theme } from '../../theme.ts';

type Props = { swap: ActorRefFrom<typeof swapMachine>; feeBps: number | null };

/**
 * The swap form's fields (docs/product.md#dex-trading). Each sends its value as typed; the swap
 * machine holds it, checks it and quotes it, so the inputs show its context. They take input only
 * while the form is open (a wallet on the right network, nothing under way).
 */
export function SwapFields({ swap, feeBps }: Props) {
  const form = useSelector(swap, (snapshot) => snapshot.context);
  const open = useSelector(swap, (snapshot) => snapshot.matches('form'));
  const { pays, receives } = assetsOf(form.side);
  const figures = form.quote ? quoteFigures(form.quote, form.slippageText) : null;
  return (
    <>
      <Sides disabled={!open}>
        <legend>{dexCopy.sideLegend}</legend>
        {(['buy', 'sell'] as const).map((side) => (
          <label key={side}>
            <input
              type="radio"
              name="swap-side"
              checked={form.side === side}
              onChange={() => swap.send({ type: 'swap.side', side })}
            />
            {dexCopy[side]}
          </label>
        ))}
      </Sides>
      <LabelledInput
        label={dexCopy.youPay}
        unit={pays}
        hint={balanceText(form.side, form.holdings)}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        placeholder={dexCopy.amountPlaceholder}
        disabled={!open}
        value={form.amountText}
        onChange={(event) => swap.send({ type: 'swap.amount', text: event.target.value })}
      />
      <LabelledInput
        label={dexCopy.youReceive}
        unit={receives}
        type="text"
        readOnly
        placeholder={dexCopy.amountPlaceholder}
        value={figures?.amountOutValue ?? ''}
      />
      {figures ? (
        <Figures>
          <dt>{dexCopy.priceImpact}</dt>
          <dd>{dexCopy.impactOf(figures.priceImpact, figures.impactWords)}</dd>
          {figures.minimumReceived === null ? null : (
            <>
              <dt>{dexCopy.minimumReceived}</dt>
              <dd>{figures.minimumReceived}</dd>
            </>
          )}
          {feeBps === null ? null : (
            <>
              <dt>{dexCopy.poolFee}</dt>
              <dd>{poolFeeText(feeBps)}</dd>
            </>
          )}
        </Figures>
      ) : null}
      <SwapSettings swap={swap} />
    </>
  );
}

const Sides = styled.fieldset`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space(2)};
  margin: 0 0 ${theme.space(4)};
  padding: 0;
  border: 0;
  legend {
    margin-bottom: ${theme.space(2)};
    font-weight: 600;
    font-size: 0.95rem;
  }
  label {
    display: inline-flex;
    align-items: center;
    gap: ${theme.space(2)};
    padding: ${theme.space(2)} ${theme.space(4)};
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius.pill};
    background: ${theme.color.surfaceAlt};
    font-weight: 600;
    cursor: pointer;
  }
  label:has(input:checked) {
    border-color: ${theme.color.accent};
    box-shadow: inset 0 0 0 1px ${theme.color.accent};
  }
  &:disabled label {
    cursor: not-allowed;
    opacity: 0.7;
  }
`;
