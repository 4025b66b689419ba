import { useSelector } from '@xstate/react';
import { useEffect, useRef, type FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import styled from 'styled-components';
import { portalCopy, sendCopy } from '../../copy/index.ts';
import {
  historyOutboxSavingTag,
  type historyOutboxMachine,
} from '../../machines/send/history-outbox.machine.ts';
import { sendBusyTag } from '../../machines/send/send.machine.ts';
import { walletSendTags, type walletSendMachine } from '../../machines/send/wallet-send.machine.ts';
import { Button } from '../common/Button.tsx';
import { Card } from '../common/Card.tsx';
import { Field } from '../common/Field.tsx';
import { useChild, useChildSelector, usePortalSelector } from '../portal-context.tsx';
import { theme } from '../theme.ts';

// The send form (docs/product.md#send-form). Uncontrolled inputs read with FormData on submit;
// the send machine checks in its own order (docs/product.md#send-form-order), hence noValidate and
// no `required`.
// The private key leaves the DOM as soon as it is handed over; recipient and
// amount stay after a refusal and go after a transfer (a new `lastHash`).
// 'Send with wallet' submits the same form without the key (docs/product.md#send-with-wallet),
// with the DDEX balance the wallet panel shows, which the machine checks the amount against.
// While a signed-in user's transfers wait for their history rows, the form says so; it stays free.
export function SendForm() {
  const send = useChild('send');
  const busy = useChildSelector('send', (snapshot) => snapshot.hasTag(sendBusyTag));
  const recipient = useChildSelector('send', (snapshot) => snapshot.context.recipient);
  const amount = useChildSelector('send', (snapshot) => snapshot.context.amount);
  const lastHash = useChildSelector('send', (snapshot) => snapshot.context.lastHash);
  const walletSend = useChildSelector(
    'send',
    (snapshot) => snapshot.children.walletSend as ActorRefFrom<typeof walletSendMachine> | undefined,
  );
  const walletStep = useSelector(walletSend, (snapshot) =>
    snapshot?.hasTag(walletSendTags.waiting)
      ? sendCopy.walletWaiting
      : snapshot?.hasTag(walletSendTags.pending)
        ? sendCopy.walletConfirming
        : null,
  );
  const historyOutbox = useChildSelector(
    'send',
    (snapshot) => snapshot.children.historyOutbox as ActorRefFrom<typeof historyOutboxMachine> | undefined,
  );
  const savingHistory = useSelector(historyOutbox, (snapshot) =>
    snapshot ? snapshot.hasTag(historyOutboxSavingTag) : false,
  );
  const balance = useChildSelector('balances', (snapshot) =>
    snapshot.context.ddex.status === 'loaded' ? snapshot.context.ddex.value : null,
  );
  const signedIn = usePortalSelector((snapshot) => snapshot.context.user !== null);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (lastHash) form.current?.reset();
  }, [lastHash]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const data = new FormData(element);
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value : '';
    };
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter instanceof HTMLButtonElement && submitter.value === 'wallet') {
      send.send({
        type: 'send.submitWithWallet',
        recipient: text('recipient'),
        amount: text('amount'),
        balance,
      });
    } else {
      send.send({
        type: 'send.submit',
        recipient: text('recipient'),
        amount: text('amount'),
        privateKey: text('privateKey'),
      });
    }
    const key = element.elements.namedItem('privateKey');
    if (key instanceof HTMLInputElement) key.value = '';
  };

  return (
    <Card aria-labelledby="send-title">
      <Title id="send-title">{portalCopy.sendTitle}</Title>
      <form ref={form} noValidate onSubmit={onSubmit}>
        <Field
          label={sendCopy.recipient}
          name="recipient"
          type="text"
          defaultValue={recipient}
          placeholder={portalCopy.recipientPlaceholder}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
        />
        <Field
          label={sendCopy.amount}
          name="amount"
          type="number"
          inputMode="decimal"
          min={sendCopy.minimumAmount}
          step="any"
          defaultValue={amount}
          placeholder={portalCopy.amountPlaceholder}
        />
        <Field
          label={sendCopy.privateKey}
          name="privateKey"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={portalCopy.privateKeyPlaceholder}
          hint={<Warning>{sendCopy.privateKeyWarning}</Warning>}
        />
        <Button type="submit" $block disabled={busy} aria-busy={busy && !walletSend}>
          {busy && !walletSend ? sendCopy.submitting : sendCopy.submit}
        </Button>
        <WalletButton
          type="submit"
          value="wallet"
          $variant="secondary"
          $block
          disabled={busy}
          aria-busy={walletSend !== undefined}
        >
          {walletStep ?? sendCopy.sendWithWallet}
        </WalletButton>
        {signedIn ? null : <Note>{sendCopy.visitorNote}</Note>}
        <Status role="status">{savingHistory ? sendCopy.savingToHistory : null}</Status>
      </form>
    </Card>
  );
}

const Title = styled.h2`
  margin: 0 0 ${theme.space(4)};
  font-size: 1.2rem;
`;

const Warning = styled.span`
  display: block;
  padding: ${theme.space(2)} ${theme.space(3)};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.warningBg};
  color: ${theme.color.warningText};
  font-weight: 600;
`;

const WalletButton = styled(Button)`
  margin-top: ${theme.space(2)};
`;

const Note = styled.p`
  margin: ${theme.space(3)} 0 0;
  font-size: 0.9rem;
  color: ${theme.color.textMuted};
`;

/** Always in the page, so a screen reader hears 'Saving to history...' when it appears; no space when empty. */
const Status = styled(Note)`
  &:empty {
    margin: 0;
  }
`;
