import { dialogCopy } from '../../../copy/dialogs.ts';
import { Dialog } from '../../common/Dialog.tsx';
import { useDialog } from '../useDialog.ts';
import { UnderConstruction } from './UnderConstruction.tsx';

/** API key management (docs/product.md#api-keys-and-security): under construction. */
export function ApiKeysDialog() {
  const { open, close } = useDialog('apiKeys');
  return (
    <Dialog open={open} onClose={close} title={dialogCopy.apiKeys.title}>
      <UnderConstruction>{dialogCopy.apiKeys.body}</UnderConstruction>
    </Dialog>
  );
}
