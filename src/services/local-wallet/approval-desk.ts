import { formatEther } from 'viem';
import type { LocalWalletAsk } from '../../domain/local-wallet.ts';
import type { LocalWalletApproval } from './provider.ts';

// Between the local test wallet, which waits for the person's answer to each request, and the
// page, which shows the request in a dialog: the wallet's `approve` is put on the desk with a
// number, the page listens for what is asked and answers by that number. An ask made before the
// page listens waits for it.

export type ApprovalDesk = {
  approve(request: LocalWalletApproval): Promise<boolean>;
  /** Hears every ask not yet answered, those made before included; returns the unsubscribe. */
  listen(onAsk: (ask: LocalWalletAsk) => void): () => void;
  answer(id: number, approved: boolean): void;
};

/** The journal-safe form of a request: the value as exact ETH text. */
export function askOf(id: number, request: LocalWalletApproval): LocalWalletAsk {
  switch (request.kind) {
    case 'connect':
      return { id, request: { kind: 'connect' } };
    case 'sign':
      return { id, request: { kind: 'sign', message: request.message } };
    case 'transaction':
      return {
        id,
        request: {
          kind: 'transaction',
          to: request.to,
          valueEth: formatEther(request.value),
          data: request.data,
        },
      };
  }
}

export function createApprovalDesk(): ApprovalDesk {
  let next = 1;
  const waiting = new Map<number, { ask: LocalWalletAsk; settle: (approved: boolean) => void }>();
  let listener: ((ask: LocalWalletAsk) => void) | null = null;

  return {
    approve(request) {
      const id = next++;
      return new Promise<boolean>((settle) => {
        const ask = askOf(id, request);
        waiting.set(id, { ask, settle });
        listener?.(ask);
      });
    },
    listen(onAsk) {
      listener = onAsk;
      for (const { ask } of waiting.values()) onAsk(ask);
      return () => {
        if (listener === onAsk) listener = null;
      };
    },
    answer(id, approved) {
      waiting.get(id)?.settle(approved);
      waiting.delete(id);
    },
  };
}
