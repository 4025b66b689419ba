import { PORTAL_CHILDREN, SESSION_CHILDREN } from '../../machines/portal/portal.machine.ts';
import type { Journal, JournalExport } from '../journal-types.ts';

// What the composition root hands the developer panel, and the machines it shows.

/** The parts of a snapshot the panel shows; live snapshots and replayed ones alike. */
export type MachineSnapshot = { value: unknown; context: unknown; status?: string };

/** A replay's final snapshots, by system id (`portal` for the root). */
export type ReplayedSystem = Readonly<Record<string, MachineSnapshot>>;

export type DevtoolsOptions = {
  journal: Journal;
  /** Rebuilds the machines from a recording without any network (src/devtools/replay.ts, loaded on demand). */
  replay: (recording: JournalExport) => Promise<ReplayedSystem>;
};

/**
 * The root and its children by journal name (actor-names.ts), in the order the panel lists them:
 * a system id, or `parent/id` for the trading tab's market and swap, which are its children.
 */
export const MACHINE_IDS = [
  'portal',
  ...PORTAL_CHILDREN,
  ...SESSION_CHILDREN,
  'faucet',
  'trading',
  'trading/market',
  'trading/swap',
  'bots',
] as const;

export type MachineId = (typeof MACHINE_IDS)[number];
