import styled from 'styled-components';
import { dialogCopy } from '../../../copy/dialogs.ts';
import type { NotificationRow } from '../../../domain/notifications.ts';
import { Button } from '../../common/Button.tsx';
import { formatTime } from '../format-time.ts';
import { Tag } from '../parts.tsx';
import { theme } from '../../theme.ts';

// One notification. Title and message are the user's data: rendered as text.
export function NotificationItem({ row, onMarkRead }: { row: NotificationRow; onMarkRead: () => void }) {
  const unread = !row.is_read;
  return (
    <Item $unread={unread}>
      <Top>
        <Title>{row.title}</Title>
        {unread ? <Tag $tone="accent">{dialogCopy.notifications.unread}</Tag> : null}
      </Top>
      <Message>{row.message}</Message>
      <Bottom>
        <time dateTime={row.created_at}>{formatTime(row.created_at)}</time>
        {unread ? (
          <Button
            type="button"
            $variant="secondary"
            onClick={onMarkRead}
            aria-label={`${dialogCopy.notifications.markRead}: ${row.title}`}
          >
            {dialogCopy.notifications.markRead}
          </Button>
        ) : null}
      </Bottom>
    </Item>
  );
}

const Item = styled.li<{ $unread: boolean }>`
  padding: ${theme.space(3)};
  border: 1px solid ${({ $unread }) => ($unread ? theme.color.accent : theme.color.border)};
  border-left-width: ${({ $unread }) => ($unread ? '4px' : '1px')};
  border-radius: ${theme.radius.md};
  background: ${({ $unread }) => ($unread ? theme.color.surfaceAlt : theme.color.surface)};
`;

const Top = styled.div`
  display: flex;
  align-items: baseline;
  justify-content: space-between;
  gap: ${theme.space(2)};
`;

const Title = styled.h3`
  margin: 0;
  font-size: 1rem;
  overflow-wrap: anywhere;
`;

const Message = styled.p`
  margin: ${theme.space(1)} 0 ${theme.space(2)};
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

const Bottom = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space(2)};
  font-size: 0.85rem;
  color: ${theme.color.textMuted};
`;
