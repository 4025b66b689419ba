import { useChild, useChildSelector } from '../portal-context.tsx';
import type { DialogName } from '../../machines/dialogs.machine.ts';

/** Whether the dialogs machine has `name` open, and how to close it. */
export function useDialog(name: DialogName): { open: boolean; close: () => void } {
  const dialogs = useChild('dialogs');
  const open = useChildSelector('dialogs', (snapshot) => snapshot.context.open === name);
  return { open, close: () => dialogs.send({ type: 'dialogs.close' }) };
}
