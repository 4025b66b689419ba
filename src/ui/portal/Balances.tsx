import styled from 'styled-components';
import { balanceCopy, portalCopy } from '../../copy/index.ts';
import { IconButton, Spinner } from '../common/Button.tsx';
import { useChild, useChildSelector } from '../portal-context.tsx';
import { balanceText } from './balance-text.ts';
import { RefreshIcon } from './icons.tsx';

// The native and DDEX balances (docs/product.md#wallet-panel; their words and
// colour from balance-text.ts) and a refresh button that is disabled and spins
// while loading. Each value has its space reserved, so nothing moves when the
// numbers arrive.
export function Balances() {
  const balances = useChild('balances');
  const loading = useChildSelector('balances', (snapshot) => snapshot.hasTag('loading'));
  const nativeReading = useChildSelector('balances', (snapshot) => snapshot.context.native);
  const tokenReading = useChildSelector('balances', (snapshot) => snapshot.context.ddex);
  const native = balanceText(nativeReading, loading);
  const token = balanceText(tokenReading, loading);

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
          <Value $alarm={native.alarm}>{native.text}</Value>
        </Item>
        <Item>
          <dt>{balanceCopy.token}</dt>
          <Value $alarm={token.alarm}>{token.text}</Value>
        </Item>
      </List>
    </section>
  );
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
