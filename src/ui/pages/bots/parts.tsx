import { useId, type ReactNode } from 'react';
import styled from 'styled-components';

// Pieces the Trading Bots tab's views share: a form field with its label, hint and the words that
// refused it, and a quiet line.

/** What a field's control needs to be named, described and marked as refused. */
export type ControlProps = { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined };

type Props = {
  label: string;
  /** Why the last submit refused this field; none once it passes or is typed into. */
  problem?: string | undefined;
  hint?: string;
  /** The input or select, given the ids that tie it to its label, hint and problem. */
  control: (props: ControlProps) => ReactNode;
};

/** A labelled control (input or select) with an optional hint and the words that refused it. */
export function BotField({ label, problem, hint, control }: Props) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : null;
  const problemId = problem ? `${id}-problem` : null;
  const described = [hintId, problemId].filter((part) => part !== null).join(' ');
  return (
    <Wrapper>
      <Label htmlFor={id}>{label}</Label>
      {control({ id, 'aria-invalid': problemId !== null, 'aria-describedby': described || undefined })}
      {hintId ? <Hint id={hintId}>{hint}</Hint> : null}
      {problemId ? <Problem id={problemId}>{problem}</Problem> : null}
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

const Hint = styled.p`
  margin: 0;
  font-size: 0.85rem;
  color: ${({ theme }) => theme.color.textMuted};
`;

const Problem = styled.p`
  margin: 0;
  font-size: 0.9rem;
  font-weight: 600;
  color: ${({ theme }) => theme.color.danger};
`;

export const Muted = styled.p`
  margin: 0 0 ${({ theme }) => theme.space(2)};
  color: ${({ theme }) => theme.color.textMuted};
  font-size: 0.9rem;
  overflow-wrap: anywhere;
`;

/** A row of buttons that wraps on a phone. */
export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
`;
