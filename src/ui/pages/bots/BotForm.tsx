import { useSelector } from '@xstate/react';
import { useId, type FormEvent, type InputHTMLAttributes } from 'react';
import styled from 'styled-components';
import { botCopy } from '../../../copy/bots.ts';
import { BOT_RULE_KINDS, WINDOW_PRESETS, type BotDraft } from '../../../domain/bots.ts';
import { isRuleKind, windowInWords } from '../../../machines/bots/bot-checks.ts';
import { botsTags } from '../../../machines/bots/bots.machine.ts';
import { Button } from '../../common/Button.tsx';
import { Card } from '../../common/Card.tsx';
import { Input, LabelledControl } from '../../common/Field.tsx';
import { Actions } from './parts.tsx';
import type { BotsActor } from '../../portal-context.tsx';
import { theme } from '../../theme.ts';

type TextField = Exclude<keyof BotDraft, 'kind' | 'windowMinutes'>;
type InputProps = Pick<InputHTMLAttributes<HTMLInputElement>, 'inputMode' | 'autoFocus' | 'placeholder'>;

/**
 * The bot form, for a new bot or the one being edited: the name, the rule's kind and that kind's
 * fields, the cooldown. Each keystroke goes to the machine, which holds the draft and, on submit,
 * the words refusing each field.
 */
export function BotForm({ actor }: { actor: BotsActor }) {
  const draft = useSelector(actor, (snapshot) => snapshot.context.draft);
  const problems = useSelector(actor, (snapshot) => snapshot.context.problems);
  const editedName = useSelector(actor, ({ context }) =>
    context.editingId === null
      ? null
      : (context.bots.find((bot) => bot.id === context.editingId)?.name ?? ''),
  );
  const saving = useSelector(actor, (snapshot) => snapshot.hasTag(botsTags.busy));
  const titleId = useId();
  const creating = editedName === null;

  /** A text field of the draft; `input` adds to (or overrides) the input's attributes. */
  const text = (name: TextField, label: string, input: InputProps = {}, hint?: string) => (
    <LabelledControl
      label={label}
      problem={problems[name]}
      {...(hint ? { hint } : {})}
      control={(props) => (
        <Input
          {...props}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          {...input}
          value={draft[name]}
          onChange={(event) => actor.send({ type: 'bots.field', name, value: event.target.value })}
        />
      )}
    />
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'bots.submit' });
  };

  return (
    <Card aria-labelledby={titleId}>
      <Title id={titleId}>{creating ? botCopy.createTitle : botCopy.editTitle(editedName)}</Title>
      <form noValidate onSubmit={submit}>
        <Fields disabled={saving}>
          {/* The form opens on a press of New bot or Edit: the name is where it starts. */}
          {text('name', botCopy.fields.name, {
            inputMode: 'text',
            autoFocus: true,
            placeholder: botCopy.namePlaceholder,
          })}
          <LabelledControl
            label={botCopy.fields.kind}
            problem={problems.kind}
            control={(props) => (
              <Input
                as="select"
                {...props}
                value={draft.kind}
                onChange={(event) => {
                  const { value } = event.target;
                  if (isRuleKind(value)) actor.send({ type: 'bots.field', name: 'kind', value });
                }}
              >
                {BOT_RULE_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {botCopy.kinds[kind]}
                  </option>
                ))}
              </Input>
            )}
          />
          {draft.kind === 'priceAbove' || draft.kind === 'priceBelow'
            ? text('level', botCopy.fields.level)
            : null}
          {draft.kind === 'priceMove' ? (
            <>
              {text('movePct', botCopy.fields.movePct)}
              <LabelledControl
                label={botCopy.fields.windowMinutes}
                problem={problems.windowMinutes}
                control={(props) => (
                  <Input
                    as="select"
                    {...props}
                    value={draft.windowMinutes}
                    onChange={(event) =>
                      actor.send({ type: 'bots.field', name: 'windowMinutes', value: event.target.value })
                    }
                  >
                    {WINDOW_PRESETS.map((minutes) => (
                      <option key={minutes} value={String(minutes)}>
                        {windowInWords(minutes)}
                      </option>
                    ))}
                  </Input>
                )}
              />
            </>
          ) : null}
          {draft.kind === 'largeSwap' ? text('minDdex', botCopy.fields.minDdex) : null}
          {text(
            'cooldownMinutes',
            botCopy.fields.cooldownMinutes,
            { inputMode: 'numeric' },
            botCopy.cooldownHint,
          )}
        </Fields>
        <Actions>
          <Button type="submit" disabled={saving} aria-busy={saving}>
            {saving ? botCopy.saving : creating ? botCopy.create : botCopy.save}
          </Button>
          <Button
            type="button"
            $variant="secondary"
            disabled={saving}
            onClick={() => actor.send({ type: 'bots.cancel' })}
          >
            {botCopy.cancel}
          </Button>
        </Actions>
      </form>
    </Card>
  );
}

const Title = styled.h3`
  margin: 0 0 ${theme.space(4)};
  font-size: 1.1rem;
`;

const Fields = styled.fieldset`
  margin: 0;
  padding: 0;
  border: 0;
  min-width: 0;
`;
