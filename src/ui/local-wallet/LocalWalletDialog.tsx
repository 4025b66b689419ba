import { useSelector } from '@xstate/react';
import styled from 'styled-components';
import type { ActorRefFrom } from 'xstate';
import { localWalletCopy } from '../../copy/local-wallet.ts';
import type { LocalWalletRequest } from '../../domain/local-wallet.ts';
import type { LocalWalletLogic } from '../../machines/wallet/wallet-types.ts';
import { Button } from '../common/Button.tsx';
import { Dialog } from '../common/Dialog.tsx';
import { Actions } from '../dialogs/parts.tsx';
import { theme } from '../theme.ts';

// The local test wallet's dialog: what it was asked to do, in full (the message to sign, or the
// transaction's recipient, value and data), with Approve and Reject. Closing it rejects, as
// closing an extension's window does.

type Props = { actor: ActorRefFrom<LocalWalletLogic> | null };

const question = (request: LocalWalletRequest) =>
  request.kind === 'connect'
    ? localWalletCopy.askConnect
    : request.kind === 'sign'
      ? localWalletCopy.askSign
      : localWalletCopy.askTransaction;

export default function LocalWalletDialog({ actor }: Props) {
  return actor ? <LocalWalletDialogOf actor={actor} /> : null;
}

function LocalWalletDialogOf({ actor }: { actor: ActorRefFrom<LocalWalletLogic> }) {
  const ask = useSelector(actor, (snapshot) =>
    snapshot.matches({ approval: 'asking' }) ? (snapshot.context.pending[0] ?? null) : null,
  );
  if (!ask) return null;
  const { request } = ask;
  const reject = () => actor.send({ type: 'localWallet.reject' });
  return (
    <Dialog open onClose={reject} title={localWalletCopy.dialogTitle} description={question(request)}>
      {request.kind === 'sign' ? (
        <Signed aria-label={localWalletCopy.askSign}>{request.message}</Signed>
      ) : null}
      {request.kind === 'transaction' ? (
        <Details>
          <dt>{localWalletCopy.to}</dt>
          <dd>{request.to ?? localWalletCopy.contractCreation}</dd>
          <dt>{localWalletCopy.value}</dt>
          <dd>{request.valueEth} ETH</dd>
          {request.data ? (
            <>
              <dt>{localWalletCopy.data}</dt>
              <dd>
                <Signed>{request.data}</Signed>
              </dd>
            </>
          ) : null}
        </Details>
      ) : null}
      <Actions>
        <Button type="button" $variant="secondary" onClick={reject}>
          {localWalletCopy.reject}
        </Button>
        <Button type="button" onClick={() => actor.send({ type: 'localWallet.approve' })}>
          {localWalletCopy.approve}
        </Button>
      </Actions>
    </Dialog>
  );
}

const Signed = styled.pre`
  margin: 0;
  max-height: 14rem;
  overflow: auto;
  padding: ${theme.space(3)};
  border-radius: ${theme.radius.md};
  background: ${theme.color.surfaceAlt};
  font-size: 0.8rem;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

const Details = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: ${theme.space(2)} ${theme.space(3)};
  margin: 0;
  dt {
    color: ${theme.color.textMuted};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
    font-family: ${theme.font.mono};
  }
`;
