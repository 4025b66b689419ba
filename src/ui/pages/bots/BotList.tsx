import { useSelector } from '@xstate/react';
import styled from 'styled-components';
import { botCopy } from '../../../copy/bots.ts';
import { MAX_BOTS } from '../../../domain/bots.ts';
import { botsTags } from '../../../machines/bots/bots.machine.ts';
import { Button } from '../../common/Button.tsx';
import { Notice, SectionTitle } from '../PageLayout.tsx';
import { BotCard } from './BotCard.tsx';
import { BotForm } from './BotForm.tsx';
import { Actions, Muted } from './parts.tsx';
import type { BotsActor } from '../../portal-context.tsx';
import { theme } from '../../theme.ts';

/**
 * A signed-in user's bots, once loaded: how many of the 25, New bot and Refresh (while the list is
 * idle), the form when it is open, and a card per bot with its newest runs. A live feed that is down
 * is said above it; the list is read again once the feed is back.
 */
export function BotList({ actor }: { actor: BotsActor }) {
  const bots = useSelector(actor, (snapshot) => snapshot.context.bots);
  const runs = useSelector(actor, (snapshot) => snapshot.context.runs);
  const idle = useSelector(actor, (snapshot) => snapshot.hasTag(botsTags.idle));
  const editing = useSelector(actor, (snapshot) => snapshot.hasTag(botsTags.editing));
  const reconnecting = useSelector(actor, (snapshot) => snapshot.hasTag(botsTags.reconnecting));
  return (
    <Section aria-labelledby="bots-list">
      {reconnecting ? <Notice role="status">{botCopy.feedLost}</Notice> : null}
      <Toolbar>
        <div>
          <SectionTitle id="bots-list">{botCopy.listTitle}</SectionTitle>
          <Muted>{botCopy.count(bots.length)}</Muted>
        </div>
        <Actions>
          <Button
            type="button"
            $variant="secondary"
            disabled={!idle}
            onClick={() => actor.send({ type: 'bots.refresh' })}
          >
            {botCopy.refresh}
          </Button>
          <Button type="button" disabled={!idle} onClick={() => actor.send({ type: 'bots.create' })}>
            {botCopy.newBot}
          </Button>
        </Actions>
      </Toolbar>
      {bots.length >= MAX_BOTS ? <Muted>{botCopy.atLimit}</Muted> : null}
      {editing ? <BotForm actor={actor} /> : null}
      {bots.length === 0 ? (
        <Muted>{botCopy.empty}</Muted>
      ) : (
        <Cards aria-labelledby="bots-list">
          {bots.map((bot) => (
            <li key={bot.id}>
              <BotCard actor={actor} bot={bot} runs={runs[bot.id] ?? []} />
            </li>
          ))}
        </Cards>
      )}
    </Section>
  );
}

const Section = styled.section`
  display: grid;
  gap: ${theme.space(4)};
`;

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  justify-content: space-between;
  gap: ${theme.space(3)};
`;

const Cards = styled.ul`
  display: grid;
  gap: ${theme.space(4)};
  margin: 0;
  padding: 0;
  list-style: none;
`;
