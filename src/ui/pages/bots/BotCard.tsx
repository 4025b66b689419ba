import { useSelector } from '@xstate/react';
import { useId } from 'react';
import styled from 'styled-components';
import { botCopy } from '../../../copy/bots.ts';
import type { Bot, BotRun } from '../../../domain/bots.ts';
import { ruleInWords } from '../../../machines/bots/bot-checks.ts';
import { botsTags } from '../../../machines/bots/bots.machine.ts';
import { Button } from '../../common/Button.tsx';
import { Card } from '../../common/Card.tsx';
import { formatTime } from '../../dialogs/format-time.ts';
import { BotRuns } from './BotRuns.tsx';
import { Actions, Muted } from './parts.tsx';
import type { BotsActor } from '../../portal-context.tsx';
import { theme } from '../../theme.ts';

type Props = { actor: BotsActor; bot: Bot; runs: readonly BotRun[] };

/**
 * One bot, a region named by the bot's name: its status, rule in words, last firing and cooldown,
 * its buttons (which take a press only while the list is idle), the delete step's question, and
 * its newest runs.
 */
export function BotCard({ actor, bot, runs }: Props) {
  const idle = useSelector(actor, (snapshot) => snapshot.hasTag(botsTags.idle));
  const targeted = useSelector(actor, (snapshot) => snapshot.context.targetId === bot.id);
  const confirming = useSelector(actor, (snapshot) => snapshot.hasTag(botsTags.confirmingDelete));
  const busy = useSelector(actor, (snapshot) => snapshot.hasTag(botsTags.busy));
  const titleId = useId();
  const active = bot.status === 'active';
  return (
    <Card aria-labelledby={titleId}>
      <Head>
        <Name id={titleId}>{bot.name}</Name>
        <Status $active={active}>{botCopy.statuses[bot.status]}</Status>
      </Head>
      <Rule>{ruleInWords(bot.rule)}</Rule>
      <Muted>
        {bot.lastFiredAt ? botCopy.lastFired(formatTime(bot.lastFiredAt)) : botCopy.neverFired}
        {'. '}
        {botCopy.cooldownInWords(String(bot.cooldownMinutes))}.
      </Muted>
      {targeted && confirming ? (
        <Confirm name={bot.name} deleting={busy} actor={actor} />
      ) : (
        <Actions>
          <Button
            type="button"
            $variant="secondary"
            disabled={!idle}
            onClick={() => actor.send({ type: 'bots.edit', id: bot.id })}
          >
            {botCopy.edit}
          </Button>
          <Button
            type="button"
            $variant="secondary"
            disabled={!idle}
            aria-busy={targeted && busy}
            onClick={() => actor.send({ type: active ? 'bots.pause' : 'bots.resume', id: bot.id })}
          >
            {active ? botCopy.pause : botCopy.resume}
          </Button>
          <Button
            type="button"
            $variant="danger"
            disabled={!idle}
            onClick={() => actor.send({ type: 'bots.delete', id: bot.id })}
          >
            {botCopy.delete}
          </Button>
        </Actions>
      )}
      <BotRuns runs={runs} />
    </Card>
  );
}

/** The delete step: the question, then delete or keep. */
function Confirm({ name, deleting, actor }: { name: string; deleting: boolean; actor: BotsActor }) {
  const id = useId();
  return (
    <Question role="group" aria-labelledby={`${id}-title`} aria-describedby={`${id}-description`}>
      <strong id={`${id}-title`}>{botCopy.confirmDeleteTitle(name)}</strong>
      <Muted id={`${id}-description`}>{botCopy.confirmDeleteDescription}</Muted>
      <Actions>
        <Button
          type="button"
          $variant="danger"
          disabled={deleting}
          aria-busy={deleting}
          onClick={() => actor.send({ type: 'bots.confirmDelete' })}
        >
          {deleting ? botCopy.deleting : botCopy.confirmDelete}
        </Button>
        <Button
          type="button"
          $variant="secondary"
          // The Delete button that was pressed is gone: the keyboard lands on the safe answer.
          autoFocus
          disabled={deleting}
          onClick={() => actor.send({ type: 'bots.cancel' })}
        >
          {botCopy.cancel}
        </Button>
      </Actions>
    </Question>
  );
}

const Head = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space(2)};
  margin-bottom: ${theme.space(2)};
`;

const Name = styled.h3`
  margin: 0;
  font-size: 1.1rem;
  overflow-wrap: anywhere;
`;

const Status = styled.span<{ $active: boolean }>`
  padding: ${theme.space(1)} ${theme.space(3)};
  border-radius: ${theme.radius.pill};
  border: 1px solid ${({ $active }) => ($active ? theme.color.success : theme.color.border)};
  color: ${({ $active }) => ($active ? theme.color.success : theme.color.textMuted)};
  font-size: 0.85rem;
  font-weight: 600;
`;

const Rule = styled.p`
  margin: 0 0 ${theme.space(1)};
  font-weight: 600;
`;

const Question = styled.div`
  display: grid;
  gap: ${theme.space(2)};
  padding: ${theme.space(3)};
  border: 1px solid ${theme.color.danger};
  border-radius: ${theme.radius.md};
`;
