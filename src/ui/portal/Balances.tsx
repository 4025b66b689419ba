import styled from 'styled-components';
import { balanceCopy, portalCopy } from '../../copy/index.ts';
import { IconButton, Spinner } from '../common/Button.tsx';
import { useChild, useChildSelector } from '../portal-context.tsx';
import { RefreshIcon } from './icons.tsx';

// Spec §2 wallet panel point 4: the native and DDEX balances ('Loading...'
// while loading, 'N/A' when empty, red for 'Error' and 'N/A (Config Error)')
// and a refresh button that is disabled and spins while loading. Each value
// has its space reserved, so nothing moves when the numbers arrive.
export function Balances() {
  const balances = useChild('balances');
  const loading = useChildSelector('balances', (snapshot) => snapshot.hasTag('loading'));
  const native = useChildSelector('balances', (snapshot) => snapshot.context.nativeBalance);
  const token = useChildSelector('balances', (snapshot) => snapshot.context.ddexBalance);

  return (
    <section aria-labelledby="balances-title">
      <Header>
        <Title id="balances-title">{portalCopy.balancesTitle}</Title>
        <IconButton
          type="button"
          aria-label={portalCopy.refreshBalances}
          title={portalCopy.refreshBalances}
          disabled={loading}
          onClick={() => balances.send({ type: 'balances.refresh' })}
        >
          <Spinner $spinning={loading}>
            <RefreshIcon />
          </Spinner>
        </IconButton>
      </Header>
      <List aria-busy={loading}>
        <Item>
          <dt>{balanceCopy.native}</dt>
          <Value $alarm={isAlarm(native)}>{shown(native, loading)}</Value>
        </Item>
        <Item>
          <dt>{balanceCopy.token}</dt>
          <Value $alarm={isAlarm(token)}>{shown(token, loading)}</Value>
        </Item>
      </List>
    </section>
  );
}

function shown(value: string, loading: boolean): string {
  if (loading) return balanceCopy.loading;
  return value === '' ? balanceCopy.empty : value;
}

function isAlarm(value: string): boolean {
  return value === balanceCopy.error || value === balanceCopy.configError;
}

const Header = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(2)};
  margin-bottom: ${({ theme }) => theme.space(2)};
`;

const Title = styled.h3`
  margin: 0;
  font-size: 1rem;
`;

const List = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(190px, 1fr));
  gap: ${({ theme }) => theme.space(3)};
  margin: 0;
`;

const Item = styled.div`
  display: grid;
  align-content: start;
  gap: ${({ theme }) => theme.space(1)};
  min-width: 0;
  padding: ${({ theme }) => `${theme.space(3)} ${theme.space(4)}`};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.color.surfaceAlt};
  border: 1px solid ${({ theme }) => theme.color.border};
  dt {
    font-size: 0.85rem;
    color: ${({ theme }) => theme.color.textMuted};
  }
`;

const Value = styled.dd<{ $alarm: boolean }>`
  margin: 0;
  min-height: 1.6em;
  font-family: ${({ theme }) => theme.font.mono};
  font-size: 1.1rem;
  font-weight: 600;
  line-height: 1.6;
  font-variant-numeric: tabular-nums;
  overflow-wrap: anywhere;
  color: ${({ $alarm, theme }) => ($alarm ? theme.color.danger : theme.color.text)};
`;
