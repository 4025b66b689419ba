import { useSelector } from '@xstate/react';
import styled from 'styled-components';
import type { ActorRefFrom } from 'xstate';
import { localWalletCopy } from '../../copy/local-wallet.ts';
import type { LocalWalletLogic } from '../../machines/wallet/wallet-types.ts';
import { Button } from '../common/Button.tsx';
import { theme } from '../theme.ts';

// The local test wallet's menu under its address, as Scaffold-ETH's burner has one: reveal the key
// (to import the wallet elsewhere) and hide it again, or replace the wallet by a new one after a
// confirmation. The key is opened here only, from its sealed form in the chart.

type Props = { actor: ActorRefFrom<LocalWalletLogic> | null };

export default function LocalWalletMenu({ actor }: Props) {
  return actor ? <LocalWalletMenuOf actor={actor} /> : null;
}

function LocalWalletMenuOf({ actor }: { actor: ActorRefFrom<LocalWalletLogic> }) {
  const menu = useSelector(actor, (snapshot) => snapshot.value.menu);
  const key = useSelector(actor, (snapshot) => snapshot.context.revealedKey);
  const send = actor.send;

  return (
    <Menu aria-label={localWalletCopy.menu}>
      {menu === 'revealed' && key ? (
        <>
          <Warning>{localWalletCopy.keyWarning}</Warning>
          <Key data-testid="local-wallet-key">{key.reveal()}</Key>
        </>
      ) : null}
      {menu === 'confirmingReplace' || menu === 'replacing' ? (
        <>
          <Warning>{localWalletCopy.replaceQuestion}</Warning>
          <Row>
            <Button type="button" $variant="secondary" onClick={() => send({ type: 'localWallet.cancel' })}>
              {localWalletCopy.cancel}
            </Button>
            <Button
              type="button"
              $variant="danger"
              disabled={menu === 'replacing'}
              aria-busy={menu === 'replacing'}
              onClick={() => send({ type: 'localWallet.replaceConfirmed' })}
            >
              {localWalletCopy.replaceConfirm}
            </Button>
          </Row>
        </>
      ) : (
        <Row>
          {menu === 'revealed' ? (
            <Button type="button" $variant="secondary" onClick={() => send({ type: 'localWallet.hideKey' })}>
              {localWalletCopy.hideKey}
            </Button>
          ) : (
            <Button
              type="button"
              $variant="secondary"
              onClick={() => send({ type: 'localWallet.revealKey' })}
            >
              {localWalletCopy.revealKey}
            </Button>
          )}
          <Button type="button" $variant="secondary" onClick={() => send({ type: 'localWallet.replace' })}>
            {localWalletCopy.replace}
          </Button>
        </Row>
      )}
    </Menu>
  );
}

const Menu = styled.section`
  display: grid;
  gap: ${theme.space(2)};
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space(2)};
`;

const Warning = styled.p`
  margin: 0;
  font-size: 0.85rem;
  color: ${theme.color.textMuted};
`;

const Key = styled.code`
  display: block;
  padding: ${theme.space(2)};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surfaceAlt};
  font-family: ${theme.font.mono};
  font-size: 0.8rem;
  overflow-wrap: anywhere;
`;
