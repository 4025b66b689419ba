import styled from 'styled-components';
import { balanceCopy, portalCopy } from '../../copy/index.ts';
import { IconButton, Spinner } from '../common/Button.tsx';
import { useChild, useChildSelector } from '../portal-context.tsx';
import { balanceText } from './balance-text.ts';
import { Faucet } from './faucet/Faucet.tsx';
import { CopyIcon, RefreshIcon } from './icons.tsx';
import { theme } from '../theme.ts';

// The native and DDEX balances (docs/product.md#balances; their words and
// colour from balance-text.ts) and a refresh button that is disabled and spins
// while loading. A value read is grouped and cut for reading, exact on hover,
// and its copy button copies it exactly. Each value has its space reserved, so
// nothing moves when the numbers arrive. Loaded after the first paint, with the
// send form (late-views-loader.ts). Under the DDEX balance, the faucet's 'Get test DDEX'.
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
        {(
          [
            ['native', balanceCopy.native, native],
            ['ddex', balanceCopy.token, token],
          ] as const
        ).map(([balance, label, { text, alarm, exact }]) => (
          <Item key={balance}>
            <dt>{label}</dt>
            <Value $alarm={alarm} title={exact}>
              <span>{text}</span>
              {exact ? (
                <Copy
                  type="button"
                  aria-label={balanceCopy.copy(label)}
                  title={balanceCopy.copy(label)}
                  onClick={() => balances.send({ type: 'balances.copy', balance })}
                >
                  <CopyIcon size={16} />
                </Copy>
              ) : null}
            </Value>
            {balance === 'ddex' ? <Faucet /> : null}
          </Item>
        ))}
      </List>
    </section>
  );
}

const Header = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space(2)};
  margin-bottom: ${theme.space(2)};
`;

const Title = styled.h3`
  margin: 0;
  font-size: 1rem;
`;

// Side by side only where each card still holds a long balance on its line ('1,000,123.45678'):
// beside the send form, and on a phone, each card has the panel's width.
const List = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(240px, 1fr));
  gap: ${theme.space(3)};
  margin: 0;
`;

const Item = styled.div`
  display: grid;
  align-content: start;
  gap: ${theme.space(1)};
  min-width: 0;
  padding: ${theme.space(3)} ${theme.space(4)};
  border-radius: ${theme.radius.md};
  background: ${theme.color.surfaceAlt};
  border: 1px solid ${theme.color.border};
  dt {
    font-size: 0.85rem;
    color: ${theme.color.textMuted};
  }
`;

// One line, whatever the value: a balance too long for its card ends in an ellipsis (the exact
// value is on hover and copied by the button at the line's end).
const Value = styled.dd<{ $alarm: boolean }>`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space(2)};
  min-width: 0;
  margin: 0;
  min-height: 1.6em;
  font-family: ${theme.font.mono};
  font-size: 1.1rem;
  font-weight: 600;
  line-height: 1.6;
  font-variant-numeric: tabular-nums;
  white-space: nowrap;
  color: ${({ $alarm }) => ($alarm ? theme.color.danger : theme.color.text)};
  span {
    overflow: hidden;
    text-overflow: ellipsis;
  }
`;

// As small as the line it sits on, so the card is as tall with it as without.
const Copy = styled(IconButton)`
  flex: none;
  min-width: 0;
  min-height: 0;
  padding: ${theme.space(1)};
`;
