import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { anyStateLabel, machineDiagram } from './machine-diagram.ts';

// Writes docs/machines/<name>.md (a Mermaid diagram generated from the
// machine's definition) for every <name>.machine.ts under src/machines, in a
// feature's folder or not, and an index. `--check` writes nothing: it lists every file that differs from what
// would be written and exits 1, so CI (`npm run docs:check`, part of
// `npm test`) fails as soon as a machine changes without its diagram.
//
//   npm run docs:diagrams   regenerate
//   npm run docs:check      compare only

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const MACHINES_DIR = 'src/machines';
export const DOCS_DIR = 'docs/machines';
export const FIX_COMMAND = 'npm run docs:diagrams';

/** One sentence per machine, in the order of the index. A machine without one stops the script. */
export const summaries: Record<string, string> = {
  portal:
    "The root of the actor system: it starts one child per concern (profile, notifications, transactions and the faucet only while signed in, the Trading and Bots tabs' actors only while their tab is shown, the faucet and the tabs' actors once their code has loaded), decides once whether a visitor gets the welcome toast, and tells each child the facts the others report that it reacts to, every toast included.",
  tab: "Which page the one-page portal shows; any value that is no tab shows 'Page not found.'.",
  theme:
    "Light or dark: the stored choice if there is one, else the system's preference, which it follows until the user picks a theme.",
  toast:
    'The one toast on screen: a new one replaces the old and restarts the timer; it hides after its duration, on dismiss, or when its action is pressed.',
  auth: "Who is signed in (the stored session, then the backend's change stream), the login and sign-up dialog with its requests (a password, or the connected wallet's signature), and signing out, as three parallel regions.",
  profile:
    "The signed-in user's profile: linking the connected wallet once walletProof has proven it and clearing it on disconnect, saving edits and uploading the avatar, once profileLoad has read it.",
  'profile-load':
    "Reads the signed-in user's profile for the profile machine, creating the row when there is none, and tries again after 1, 2, 5, then every 10 s when the backend fails.",
  'wallet-proof':
    "Proves the connected wallet for the profile machine: a nonce from link-wallet, the wallet's signature of an EIP-4361 message carrying it, then link-wallet's check; a refusal or failure shows one toast and ends without a profile.",
  wallet:
    "The browser wallet: discovery, the silent reconnect on reload, connecting, the provider's account, chain and disconnect events, the wrong-network switch, asking the wallet to list DDEX (EIP-747), disconnecting, and, in a build for the local chain with no extension, taking the local test wallet.",
  'local-wallet':
    'The local test wallet (a build for the local chain only), a child of the wallet machine once a person took it: each connect, signature and transaction it is asked for waits in order for Approve or Reject in its dialog, and its menu reveals the key (sealed) or replaces the wallet after a confirmation.',
  balances:
    "The wallet panel's ETH and DDEX balances, fetched side by side, and the copy of a value read (exactly as read); without a token contract the DDEX balance is 'N/A (Config Error)' and is not fetched.",
  send: "The DDEX send form: the checks in the spec's order, then prepare, sign (the private key is dropped once it has signed), broadcast or have walletSend send it, and, when signed in, record in the history; a transfer that may have gone out is checked, never sent twice.",
  'wallet-send':
    'Sends one DDEX transfer with the connected wallet for the send machine: checked against the chain, signed and broadcast by the wallet (eth_sendTransaction), then confirmed on its receipt; it ends confirmed, unconfirmed (sent, no receipt yet) or stopped.',
  'history-outbox':
    "The send machine's outbox of history rows: a signed-in user's confirmed transfers, saved by record-transaction one at a time in order, tried three times in all (after 1 s, then 2 s) when the backend is down, not retried when refused; after the last try, or when the session ends, a toast says which are not saved.",
  notifications:
    "The signed-in user's notifications and their unread count: the list, the live feed with its 1, 2, 5, 10 s back-off, marking read and clearing.",
  transactions:
    "The signed-in user's transaction history: the newest rows each time the dialog opens and after each transfer.",
  unsubscribe:
    "An email alert's unsubscribe link: the page asks before it turns that kind of email off, then says which one stopped, or why it could not.",
  webhooks:
    "The Tatum webhooks demo: subscribe the connected wallet's address, list the subscriptions and delete the first one, one operation at a time.",
  dialogs: "Which of the portal's dialogs is open (at most one), and whether the user menu is open.",
  faucet:
    "'Get test DDEX', a child of the portal while a user is signed in (once its code has loaded): the human check (hCaptcha's widget, or a local build's stand-in), then the claim through the faucet function, one toast for its answer, and a paid claim's transfer awaited before faucet.claimed (the portal refreshes the balances).",
  trading:
    "The root of the DEX Trading tab, a child of the portal while the tab is shown: it runs market and swap side by side, hands each new block and the root's wallet and session changes to swap, and reports trading.swapConfirmed (the portal refreshes the balances) and trading.swapRecorded (the history).",
  market:
    'The DDEX/WETH market: the pair, its reserves, the last 20 trades and the price chart, loaded once (tried again after 1, 2, 5, then every 10 s) and then followed block by block; no pair or router ends it as unavailable.',
  swap: 'The swap form: ETH → DDEX or DDEX → ETH on a quote refreshed as the user types (after a pause) and on every block, the checks of balance, liquidity, slippage and allowance, the approval a sale needs, a slippage tolerance above 5 % confirmed before the wallet is asked, then the swap through the wallet to its confirmed, rejected, reverted or failed outcome.',
  bots: "The Trading Bots tab: a visitor is asked to log in; a signed-in user's bots with their newest runs, loaded (tried again after 1, 2, 5, then every 10 s), created and edited through a checked form, paused, resumed and deleted one at a time, and read again whenever the live feed (with the same back-off) reports a change.",
};

export type MachineEntry = {
  name: string;
  machine: AnyStateMachine;
  /** Repository-relative path of the machine's file. */
  source: string;
};

/**
 * Imports every `<name>.machine.ts` under `root`/src/machines, at any depth, and takes its
 * `<name>Machine` export, the name in camel case (`profile-load.machine.ts` exports
 * `profileLoadMachine`). The diagrams are named by the machine alone, so two machines of one name
 * stop the script.
 */
export async function loadMachines(root = REPO_ROOT): Promise<MachineEntry[]> {
  const files = (await readdir(join(root, MACHINES_DIR), { recursive: true }))
    .map((file) => file.split(sep).join('/'))
    .filter((file) => file.endsWith('.machine.ts'))
    .map((file) => ({ file, name: basename(file, '.machine.ts') }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries: MachineEntry[] = [];
  for (const { file, name } of files) {
    const source = `${MACHINES_DIR}/${file}`;
    const twin = entries.find((entry) => entry.name === name);
    if (twin) throw new Error(`${twin.source} and ${source} are both the "${name}" machine: rename one.`);
    const module = (await import(pathToFileURL(join(root, MACHINES_DIR, file)).href)) as Record<
      string,
      unknown
    >;
    const exported = `${name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())}Machine`;
    const machine = module[exported];
    if (!isMachine(machine)) {
      throw new Error(`${source} exports no \`${exported}\` (src/machines/README.md).`);
    }
    entries.push({ name, machine, source });
  }
  return entries;
}

function isMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && 'root' in value && 'transition' in value;
}

/** Every file the generator owns, by repository-relative path, with its exact contents. */
export async function renderDocs(machines: MachineEntry[]): Promise<Map<string, string>> {
  const order = Object.keys(summaries);
  const sorted = [...machines].sort((a, b) => rank(order, a.name) - rank(order, b.name));
  const files = new Map<string, string>();
  for (const entry of sorted) {
    files.set(`${DOCS_DIR}/${entry.name}.md`, await prettify(machinePage(entry), `${entry.name}.md`));
  }
  files.set(`${DOCS_DIR}/README.md`, await prettify(indexPage(sorted), 'README.md'));
  return files;
}

function rank(order: string[], name: string): number {
  const index = order.indexOf(name);
  return index === -1 ? order.length : index;
}

function summaryOf(name: string): string {
  const summary = summaries[name];
  if (summary === undefined) {
    throw new Error(
      `The "${name}" machine has no summary: add one sentence for it to \`summaries\` in scripts/diagrams.ts.`,
    );
  }
  return summary;
}

const GENERATED = `<!-- Generated by \`${FIX_COMMAND}\` from the machines in ${MACHINES_DIR}; do not edit. \`npm run docs:check\` fails when it is out of date. -->`;

function machinePage({ name, machine, source }: MachineEntry): string {
  return [
    GENERATED,
    '',
    `# ${name}`,
    '',
    summaryOf(name),
    '',
    `Source: [\`${source}\`](../../${source}). ${countsLine(machine)} How to read it: [the legend](README.md#reading-the-diagrams).`,
    '',
    '```mermaid',
    machineDiagram(machine).trimEnd(),
    '```',
    '',
  ].join('\n');
}

function indexPage(machines: MachineEntry[]): string {
  const rows = machines.map(({ name, machine }) => {
    const { states, transitions } = counts(machine);
    return `| [${name}](${name}.md) | ${summaryOf(name).replace(/\|/g, '\\|')} | ${states} | ${transitions} |`;
  });
  return [
    GENERATED,
    '',
    '# Statechart diagrams',
    '',
    `One diagram per machine in \`${MACHINES_DIR}\`, drawn from the machine's own definition (\`xstate/graph\`'s \`toDirectedGraph\`, plus its \`always\` transitions) by \`scripts/diagrams.ts\`. After changing a machine, run \`${FIX_COMMAND}\` and commit the result; \`npm run docs:check\` (part of \`npm test\`) fails while a diagram is out of date. The states and transitions are counted as \`npm run test:paths\` counts them, so its coverage table can be read against this one.`,
    '',
    '| machine | covers | states | transitions |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    '## Reading the diagrams',
    '',
    '- `[*]` points at the state a machine (or a compound state) starts in. A box inside a box is a compound state; dashed boxes side by side are the regions of a parallel state, all active at once.',
    '- An arrow is a transition, labelled `event [guard]`. Transitions between the same two states share one arrow, one line each. An arrow from a state to itself is an event handled there: without leaving it, or leaving and entering it again.',
    '- `[else]` is the unguarded last choice after guarded ones; `[guard]` is an inline guard, which has no name to show (name it in `setup({ guards })` to see it here); `[in a.b]` is `stateIn`; `and`, `or` and `not` are spelled out.',
    '- `always` is an eventless transition, taken as soon as its guard holds. `done x` / `error x` is the invoked actor `x` finishing or failing. `after name (n ms)` is a named delay. `* (any other event)` is a wildcard.',
    `- A dashed **${anyStateLabel}** node stands for the state around it (or the whole machine): its arrows are transitions declared there, taken in whichever of its states the machine is in.`,
    '',
  ].join('\n');
}

function counts(machine: AnyStateMachine): { states: number; transitions: number } {
  const nodes = getStateNodes(machine.root).filter((node) => node.type !== 'history');
  const transitions = [machine.root, ...nodes].reduce(
    (total, node: AnyStateNode) =>
      total + [...node.transitions.values()].flat().length + (node.always?.length ?? 0),
    0,
  );
  return { states: nodes.length, transitions };
}

function countsLine(machine: AnyStateMachine): string {
  const { states, transitions } = counts(machine);
  return `${states} states, ${transitions} transitions.`;
}

async function prettify(markdown: string, name: string): Promise<string> {
  // The repository's Prettier settings, so `npm run format` leaves the files as they are.
  const filepath = join(REPO_ROOT, DOCS_DIR, name);
  const config = (await resolveConfig(filepath)) ?? {};
  return format(markdown, { ...config, filepath });
}

export type Drift = { file: string; kind: 'missing' | 'stale' | 'orphan' };

/** What differs between `root` and the expected files; an empty list means up to date. */
export async function findDrift(root: string, expected: Map<string, string>): Promise<Drift[]> {
  const drift: Drift[] = [];
  for (const [file, content] of expected) {
    const actual = await readFile(join(root, file), 'utf8').catch(() => null);
    if (actual === null) drift.push({ file, kind: 'missing' });
    else if (actual !== content) drift.push({ file, kind: 'stale' });
  }
  for (const file of await ownedFiles(root)) {
    if (!expected.has(file)) drift.push({ file, kind: 'orphan' });
  }
  return drift;
}

/** The Markdown files in docs/machines: all of them are the generator's. */
async function ownedFiles(root: string): Promise<string[]> {
  const names = await readdir(join(root, DOCS_DIR)).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.md')).map((name) => `${DOCS_DIR}/${name}`);
}

/** One line for a drift; `machines` name the source file of a stale diagram. */
export function describeDrift({ file, kind }: Drift, machines: MachineEntry[]): string {
  const name = /([^/]+)\.md$/.exec(file)?.[1] ?? '';
  const source = machines.find((entry) => entry.name === name)?.source ?? MACHINES_DIR;
  const what =
    kind === 'missing'
      ? 'is missing'
      : kind === 'stale'
        ? `is out of date with ${source}`
        : `belongs to no machine in ${MACHINES_DIR}`;
  return `${file} ${what}: run \`${FIX_COMMAND}\` and commit the result.`;
}

/** Brings `root` in step with the expected files; returns what it wrote or deleted. */
export async function writeDocs(root: string, expected: Map<string, string>): Promise<Drift[]> {
  const drift = await findDrift(root, expected);
  await mkdir(join(root, DOCS_DIR), { recursive: true });
  for (const { file, kind } of drift) {
    if (kind === 'orphan') await unlink(join(root, file));
    else await writeFile(join(root, file), expected.get(file) ?? '');
  }
  return drift;
}

/** The check as `npm run docs:check` runs it: the problems, one line each (none when up to date). */
export async function checkDiagrams(root = REPO_ROOT, machines?: MachineEntry[]): Promise<string[]> {
  const entries = machines ?? (await loadMachines(root));
  const expected = await renderDocs(entries);
  return (await findDrift(root, expected)).map((drift) => describeDrift(drift, entries));
}

async function main(args: string[]): Promise<number> {
  const check = args.includes('--check');
  try {
    if (check) {
      const problems = await checkDiagrams();
      for (const problem of problems) console.error(problem);
      if (problems.length === 0) process.stdout.write(`docs:check: ${DOCS_DIR} matches ${MACHINES_DIR}.\n`);
      return problems.length === 0 ? 0 : 1;
    }
    const changed = await writeDocs(REPO_ROOT, await renderDocs(await loadMachines()));
    for (const { file, kind } of changed) {
      process.stdout.write(`${kind === 'orphan' ? 'deleted' : 'wrote'} ${file}\n`);
    }
    if (changed.length === 0) process.stdout.write(`${DOCS_DIR} is up to date.\n`);
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
