import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import styled from 'styled-components';

// A labelled input. Inputs are uncontrolled (the machines hold only what a
// submit needs), so `defaultValue` and form submission carry the values.

type Props = InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode };

export function Field({ label, hint, ...input }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <Wrapper>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} aria-describedby={hint ? hintId : undefined} {...input} />
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

export const Input = styled.input`
  width: 100%;
  min-height: 40px;
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(3)}`};
  border: 1px solid ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.sm};
  background: ${({ theme }) => theme.color.surfaceAlt};
  color: ${({ theme }) => theme.color.text};
  font: inherit;
`;

const Hint = styled.p`
  margin: 0;
  font-size: 0.85rem;
  color: ${({ theme }) => theme.color.textMuted};
`;
