import { authCopy } from '../../../copy/index.ts';
import { Button } from '../../common/Button.tsx';
import { Actions, StatusText } from '../parts.tsx';

// After a mail with a link was sent (a sign-up that waits for it, or a password reset): the
// dialog names the address; this adds the spam-folder hint and the way out.
export function CheckEmail({ onOk }: { onOk: () => void }) {
  return (
    <>
      <StatusText>{authCopy.confirmSpamHint}</StatusText>
      <Actions>
        <Button type="button" onClick={onOk} autoFocus $block>
          {authCopy.confirmOk}
        </Button>
      </Actions>
    </>
  );
}
