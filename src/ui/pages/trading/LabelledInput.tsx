import { useId, type InputHTMLAttributes } from 'react';
import styled from 'styled-components';
import { Input } from '../../common/Field.tsx';
import { Muted } from './parts.tsx';

type Props = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  /** What the number is in ('ETH', '%'), shown after the input; the label already says it to a reader. */
  unit?: string;
  /** A line under the input (the balance), read with it. */
  hint?: string | null;
};

/** An input with its label over it, its unit beside it and an optional line under it. */
export function LabelledInput({ label, unit, hint, ...input }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <Wrapper>
      <Label htmlFor={id}>{label}</Label>
      <Row>
        <Input id={id} aria-describedby={hint ? hintId : undefined} {...input} />
        {unit ? <Unit aria-hidden="true">{unit}</Unit> : null}
      </Row>
      {hint ? <Hint id={hintId}>{hint}</Hint> : null}
    </Wrapper>
  );
}

const Wrapper = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(1)};
  margin-bottom: ${({ theme }) => theme.space(4)};
`;

const Label = styled.label`
  font-weight: 600;
  font-size: 0.95rem;
`;

const Row = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
`;

const Unit = styled.span`
  min-width: 3.5em;
  color: ${({ theme }) => theme.color.textMuted};
  font-weight: 600;
`;

const Hint = styled(Muted)`
  margin: 0;
`;
