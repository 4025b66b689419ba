// The words the server writes into a user's notifications about their history: what arrived, swaps,
// approvals and corrections after a reorganisation. One module, so a notification reads the same
// whichever function or event wrote it. (The bots' words are the evaluate_market_swap SQL's.)
//
// What the wallet sent and the fees it paid are history rows without a word: the user made them,
// the portal tells of its own as it makes them ('Transfer Submitted'), and a notification arriving
// a moment later would replace that toast (one toast at a time) with news the user already has.
import { ADDRESS } from './address.ts';

/** A transfer, an approval or a swap, as far as its words need it. */
export type Worded = {
  /** The history row's type: native_received, token_sent, fee, swap, approval, … */
  type: string;
  /** 'DDEX', 'ETH', or an unknown token's contract address. */
  symbol: string;
  /** Signed from the wallet's side, as stored. */
  amount: string;
  txId: string;
  counterparty: string | null;
  /** A swap's ETH leg, signed from the wallet's side. */
  counterAmount?: string | null;
  unlimited?: boolean;
};

export type Words = { title: string; message: string };

export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

const txNote = (txId: string) => `(tx ${txId.slice(0, 10)}…)`;
const unsigned = (amount: string) => (amount.startsWith('-') ? amount.slice(1) : amount);

/** The notification of a history row, or null for a row told without one (a send, a fee). */
export function wordsOf(row: Worded): Words | null {
  // An unknown token's "symbol" is its contract address: shorten it for reading.
  const label = ADDRESS.test(row.symbol) ? shortAddress(row.symbol) : row.symbol;
  const amount = `${unsigned(row.amount)} ${label}`;
  const tx = txNote(row.txId);
  const counter = row.counterparty === null ? null : shortAddress(row.counterparty);

  if (row.type === 'fee' || row.type.endsWith('_sent')) return null;
  if (row.type === 'swap') {
    const eth = row.counterAmount ? ` for ${unsigned(row.counterAmount)} ETH` : '';
    // Not the portal's own 'Swap Confirmed' toast: this one also reaches a swap made elsewhere.
    return row.amount.startsWith('-')
      ? { title: `${label} Sold`, message: `You sold ${amount}${eth} ${tx}.` }
      : { title: `${label} Bought`, message: `You bought ${amount}${eth} ${tx}.` };
  }
  if (row.type === 'approval') {
    const allowance = row.unlimited ? `unlimited ${label}` : amount;
    return {
      title: `${label} Approval`,
      message: `You allowed ${counter ?? 'a contract'} to spend ${allowance} ${tx}.`,
    };
  }
  // A faucet claim is told as any transfer in, naming the faucet rather than its address.
  const from = row.type === 'faucet' ? ' from the faucet' : counter === null ? '' : ` from ${counter}`;
  return {
    title: `${label} Received`,
    message: `You received ${amount}${from} ${tx}.`,
  };
}

/**
 * The kind of email a row's notification may be sent as (user_notifications.kind), or null for one
 * never mailed. 'transfers' is DDEX or ETH arriving from someone else: money in that the user did
 * not just ask for. A swap, an approval or a faucet claim is the user's own doing, which the portal
 * already told them of as they did it, and another token's arrival is anybody's to send (a
 * stranger's token would be an email to anyone they liked).
 */
export function alertKindOf(row: Pick<Worded, 'type' | 'symbol'>): 'transfers' | null {
  return row.type.endsWith('_received') && (row.symbol === 'DDEX' || row.symbol === 'ETH')
    ? 'transfers'
    : null;
}

/** The one notification of a transaction a reorganisation took out of the chain. */
export function droppedWords(txId: string): Words {
  return {
    title: 'Transaction Dropped',
    message: `A chain reorganisation removed transaction ${txId.slice(0, 10)}… from the chain; its history entry is marked dropped.`,
  };
}

/** The one notification of a transaction a reorganisation moved to another block. */
export function movedWords(txId: string, blockNumber: number): Words {
  return {
    title: 'Transaction Updated',
    message: `After a chain reorganisation, transaction ${txId.slice(0, 10)}… is in block ${blockNumber}; its history entry was updated.`,
  };
}
