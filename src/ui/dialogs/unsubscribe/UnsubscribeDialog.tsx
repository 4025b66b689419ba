import { dialogCopy } from '../../../copy/dialogs.ts';
import { Button } from '../../common/Button.tsx';
import { Dialog } from '../../common/Dialog.tsx';
import { useChild, useChildSelector } from '../../portal-context.tsx';
import { Actions, StatusText } from '../parts.tsx';

// An email alert's unsubscribe link, asked before it is used (the unsubscribe machine): open while
// it asks and while the request runs. Closing it keeps the emails.
export function UnsubscribeDialog() {
  const unsubscribe = useChild('unsubscribe');
  const open = useChildSelector('unsubscribe', (s) => s.matches('asking') || s.matches('sending'));
  const sending = useChildSelector('unsubscribe', (s) => s.matches('sending'));
  const kind = useChildSelector('unsubscribe', (s) => s.context.kind);
  const keep = () => unsubscribe.send({ type: 'unsubscribe.dismiss' });
  return (
    <Dialog open={open} onClose={keep} title={dialogCopy.unsubscribe.title}>
      <StatusText>{dialogCopy.unsubscribe.question(kind)}</StatusText>
      <Actions>
        <Button type="button" $variant="secondary" onClick={keep} disabled={sending}>
          {dialogCopy.unsubscribe.keep}
        </Button>
        <Button
          type="button"
          aria-disabled={sending || undefined}
          onClick={() => !sending && unsubscribe.send({ type: 'unsubscribe.confirm' })}
        >
          {sending ? dialogCopy.unsubscribe.stopping : dialogCopy.unsubscribe.stop}
        </Button>
      </Actions>
    </Dialog>
  );
}
