import { useId, type ComponentType, type InputHTMLAttributes, type ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from '../theme.ts';

// Form fields: a control with its label over it, an optional hint under it and, after a refused
// submit, the words that refused it, each tied to the control by id. `Field` is the plain input of
// the portal's forms, which are uncontrolled (the machines hold only what a submit needs), so
// `defaultValue` and form submission carry the values.

/** What a control needs to be named, described and marked as refused. */
export type ControlProps = { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined };

type LabelledControlProps = {
  label: string;
  hint?: ReactNode;
  /** Why the last submit refused this field; none once it passes or is typed into. */
  problem?: string | undefined;
  /** The hint's element, for a tab whose quiet lines look otherwise; the forms' small print if absent. */
  hintAs?: ComponentType<{ id: string; children: ReactNode }>;
  /** The input or select (or a row holding it), given the ids that tie it to its label, hint and problem. */
  control: (props: ControlProps) => ReactNode;
};

/** A labelled control (an input, a select) with an optional hint and the words that refused it. */
export function LabelledControl({
  label,
  hint,
  problem,
  hintAs: HintLine = Hint,
  control,
}: LabelledControlProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : null;
  const problemId = problem ? `${id}-problem` : null;
  const described = [hintId, problemId].filter((part) => part !== null).join(' ');
  return (
    <Wrapper>
      <Label htmlFor={id}>{label}</Label>
      {control({ id, 'aria-invalid': problemId !== null, 'aria-describedby': described || undefined })}
      {hintId ? <HintLine id={hintId}>{hint}</HintLine> : null}
      {problemId ? <Problem id={problemId}>{problem}</Problem> : null}
    </Wrapper>
  );
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode };

/** A labelled input with an optional hint. */
export function Field({ label, hint, ...input }: FieldProps) {
  return (
    <LabelledControl
      label={label}
      hint={hint}
      control={({ id, 'aria-describedby': describedBy }) => (
        <Input id={id} aria-describedby={describedBy} {...input} />
      )}
    />
  );
}

const Wrapper = styled.div`
  display: grid;
  gap: ${theme.space(1)};
  margin-bottom: ${theme.space(4)};
`;

const Label = styled.label`
  font-weight: 600;
  font-size: 0.95rem;
`;

export const Input = styled.input`
  width: 100%;
  min-height: 40px;
  padding: ${theme.space(2)} ${theme.space(3)};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surfaceAlt};
  color: ${theme.color.text};
  font: inherit;
`;

const Hint = styled.p`
  margin: 0;
  font-size: 0.85rem;
  color: ${theme.color.textMuted};
`;

const Problem = styled.p`
  margin: 0;
  font-size: 0.9rem;
  font-weight: 600;
  color: ${theme.color.danger};
`;
