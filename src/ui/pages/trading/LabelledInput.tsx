import type { InputHTMLAttributes } from 'react';
import styled from 'styled-components';
import { Input, LabelledControl } from '../../common/Field.tsx';
import { Muted } from './parts.tsx';
import { theme } from '../../theme.ts';

type Props = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  /** What the number is in ('ETH', '%'), shown after the input; the label already says it to a reader. */
  unit?: string;
  /** A line under the input (the balance), read with it. */
  hint?: string | null;
};

/** An input with its label over it, its unit beside it and an optional line under it. */
export function LabelledInput({ label, unit, hint, ...input }: Props) {
  return (
    <LabelledControl
      label={label}
      hint={hint}
      hintAs={Hint}
      control={({ id, 'aria-describedby': describedBy }) => (
        <Row>
          <Input id={id} aria-describedby={describedBy} {...input} />
          {unit ? <Unit aria-hidden="true">{unit}</Unit> : null}
        </Row>
      )}
    />
  );
}

const Row = styled.div`
  display: flex;
  align-items: center;
  gap: ${theme.space(2)};
`;

const Unit = styled.span`
  min-width: 3.5em;
  color: ${theme.color.textMuted};
  font-weight: 600;
`;

// The balance under an amount reads as the tab's other quiet lines do.
const Hint = styled(Muted)`
  margin: 0;
`;
