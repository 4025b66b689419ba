import styled from 'styled-components';
import { useChildSelector } from '../portal-context.tsx';
import { ToastCard } from './ToastCard.tsx';
import { theme } from '../theme.ts';

// The one toast on screen (the toast machine keeps at most one and hides it
// after its duration). Both live regions are always in the page, so a screen
// reader hears what appears in them: politely for news, at once for errors.
// They carry aria-live explicitly, which keeps them audible while a modal
// dialog hides the rest of the page from assistive technology.
export function Toaster() {
  const toast = useChildSelector('toast', (snapshot) => snapshot.context.toast);
  const destructive = toast?.variant === 'destructive';
  return (
    <Viewport>
      <div role="status" aria-live="polite" aria-atomic="true">
        {toast && !destructive ? <ToastCard toast={toast} /> : null}
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="true">
        {toast && destructive ? <ToastCard toast={toast} /> : null}
      </div>
    </Viewport>
  );
}

const Viewport = styled.div`
  position: fixed;
  right: ${theme.space(4)};
  bottom: ${theme.space(4)};
  z-index: 1000;
  width: min(380px, calc(100vw - 24px));
  ${theme.phone} {
    right: 12px;
    bottom: 12px;
  }
`;
