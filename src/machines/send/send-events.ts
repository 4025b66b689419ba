import type { AuthUser } from '../../domain/auth.ts';
import type { HistoryOutboxFact } from './history-outbox.machine.ts';

// The send machine's events (send.machine.ts): the form's presses, what the root tells it, and its
// history outbox's fact. Apart from send-types.ts because the outbox machine imports its input type
// from there: with the outbox's fact here, the imports between the two go one way.

export type SendEvent =
  /** The only event that carries the private key. */
  | { type: 'send.submit'; recipient: string; amount: string; privateKey: string }
  /** 'Send with wallet'; `balance` is the DDEX balance the page shows, null while there is none. */
  | { type: 'send.submitWithWallet'; recipient: string; amount: string; balance: string | null }
  | { type: 'wallet.changed'; address: string | null; chainId: number | null }
  | { type: 'session.changed'; user: AuthUser | null }
  | HistoryOutboxFact;
