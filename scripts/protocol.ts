import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import type { PortalEvent } from '../src/machines/portal/portal.machine.ts';
import { portalMachine } from '../src/machines/portal/portal.machine.ts';

// The root's protocol table (docs/architecture.md, between the markers below): one row per fact a
// child reports to the root, with who reports it and what the root does. The rows are typed by
// the root's event type, so a fact added to a child's union, renamed or removed fails
// `npm run typecheck` until its row says what the root does with it; the table is written from
// them, and `--check` (part of `npm run docs:check`) fails when the document differs, or when the
// root's chart takes an event that is no row's, or a row's that it does not take.
//
//   npx tsx scripts/protocol.ts           rewrite the table
//   npx tsx scripts/protocol.ts --check   compare only

type Row = { from: string; root: string };

const rows: { [Fact in PortalEvent['type']]: Row } = {
  'auth.ready': {
    from: 'auth',
    root: 'with `wallet.ready`, decides once whether a visitor gets the welcome toast; a stored session enters `session.signedIn` as `auth.signedIn` does',
  },
  'auth.signedIn': {
    from: 'auth',
    root: 'enters `session.signedIn`: starts profile (with the connected wallet), notifications, transactions; `session.changed { user }` → wallet, send and a running tab actor (another user: the old session ends first)',
  },
  'auth.signedOut': {
    from: 'auth',
    root: "leaves `session.signedIn`: stops the session's children; `session.changed { user: null }` → wallet, send and a running tab actor; `session.ended` → dialogs",
  },
  'auth.userUpdated': { from: 'auth', root: '`session.userUpdated` → profile' },
  'wallet.ready': { from: 'wallet', root: 'the welcome-toast bookkeeping' },
  'wallet.connected': {
    from: 'wallet',
    root: '`wallet.changed { address, chainId }` → balances, send, webhooks and a running trading actor; signed in: `wallet.linked` → profile',
  },
  'wallet.accountChanged': { from: 'wallet', root: 'as `wallet.connected`' },
  'wallet.disconnected': {
    from: 'wallet',
    root: '`wallet.changed { address: null, chainId: null }` → the same; signed in: `wallet.unlinked` → profile',
  },
  'wallet.chainChanged': {
    from: 'wallet',
    root: '`wallet.changed` → balances, send, webhooks and a running trading actor',
  },
  'send.transferSubmitted': {
    from: 'send',
    root: '`balances.refresh` → balances; signed in: `transactions.refresh` → transactions',
  },
  'dialogs.opened': {
    from: 'dialogs',
    root: "signed in: `notifications.open` / `transactions.open` to the dialog's machine; signed out, the history: the 'Login Required' toast",
  },
  'dialogs.closed': {
    from: 'dialogs',
    root: 'signed in, the profile dialog: `profile.discardEdits` → profile (unsaved edits are dropped)',
  },
  'toast.actionPressed': {
    from: 'toast',
    root: 'the action (a `ToastAction`, e.g. `wallet.switchNetwork`) → the machine that handles it',
  },
  'toast.requested': { from: 'any machine (`showToast`)', root: '`toast.show { toast }` → toast' },
  'tab.shown': {
    from: 'tab',
    root: 'the Trading or Bots tab: loads its code (`loadTrading` / `loadBots`) and spawns its actor in the system, which another tab stops',
  },
  'trading.swapConfirmed': { from: 'trading', root: '`balances.refresh` → balances' },
  'trading.swapRecorded': { from: 'trading', root: 'signed in: `transactions.refresh` → transactions' },
  'faucet.claimed': { from: 'faucet', root: '`balances.refresh` → balances' },
  'unsubscribe.done': {
    from: 'unsubscribe',
    root: 'signed in: `session.userUpdated` → profile (the profile is read again)',
  },
};

const BEGIN = '<!-- protocol table: written by scripts/protocol.ts from its rows, typed by PortalEvent -->';
const END = '<!-- end of protocol table -->';
const DOC = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'docs/architecture.md');

/** Every event the root's chart has a transition for, but XState's own (done, error, after). */
function eventsTaken(): string[] {
  return [...new Set(portalMachine.root.events)].filter((type) => !type.startsWith('xstate.')).sort();
}

async function table(): Promise<string> {
  const lines = [
    '| fact (child → portal) | reported by | the portal |',
    '| --- | --- | --- |',
    ...Object.entries(rows).map(([fact, row]) => `| \`${fact}\` | ${row.from} | ${row.root} |`),
  ];
  const options = (await resolveConfig(DOC)) ?? {};
  return (await format(lines.join('\n'), { ...options, parser: 'markdown' })).trim();
}

const check = process.argv.includes('--check');
const problems: string[] = [];
const taken = eventsTaken();
const described = Object.keys(rows).sort();
for (const type of taken)
  if (!described.includes(type)) problems.push(`the root takes ${type}, which has no row`);
for (const type of described)
  if (!taken.includes(type)) problems.push(`${type} has a row, but the root takes no such event`);

const doc = await readFile(DOC, 'utf8');
const start = doc.indexOf(BEGIN);
const end = doc.indexOf(END);
if (start < 0 || end < start) problems.push(`docs/architecture.md has no protocol table markers`);
else {
  const written = `${doc.slice(0, start + BEGIN.length)}\n\n${await table()}\n\n${doc.slice(end)}`;
  if (written !== doc) {
    if (check)
      problems.push('docs/architecture.md: the protocol table differs; run npx tsx scripts/protocol.ts');
    else await writeFile(DOC, written);
  }
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exitCode = 1;
