// The developer panel's words. The spec does not quote any of them (the panel
// is for developers and testers, not the portal's visitors); they live here,
// in the panel's lazy chunk, so visitors do not download them.

export const devtoolsCopy = {
  toggleText: 'Devtools',
  title: 'Developer panel',
  close: 'Close',
  tabsLabel: 'Developer panel views',
  tabs: { machines: 'Machines', journal: 'Journal', replay: 'Replay', diagram: 'Diagram' },

  machines: {
    heading: 'Live machines',
    description: 'The current state of each machine of the portal, updated as it changes.',
    context: (keys: number) => `Context (${keys} ${keys === 1 ? 'key' : 'keys'})`,
    status: (status: string) => `status: ${status}`,
    showDiagram: (machine: string) => `Diagram of ${machine}`,
    missing: 'not running',
  },

  journal: {
    heading: 'Event journal',
    description: 'Every event that reached the actor system, newest first. Secrets are redacted.',
    filterLabel: 'Filter by event type or target',
    export: 'Export journal (JSON)',
    empty: 'No events recorded yet.',
    noMatch: 'No event matches the filter.',
    count: (shown: number, total: number) =>
      shown === total ? `${total} events` : `Showing the newest ${shown} of ${total} events`,
    truncated: 'Older events were dropped: the journal is bounded.',
    from: (source: string | null) => (source ? `from ${source}` : 'from outside'),
    payload: 'Payload',
    noPayload: 'no payload',
    columns: { seq: 'Seq', at: 'Time', target: 'Target', source: 'Source', event: 'Event' },
  },

  replay: {
    heading: 'Replay a journal',
    description:
      'Import a journal exported from this panel: its events are replayed without any network, and the machines it rebuilds are shown here next to the live ones.',
    fileLabel: 'Journal file (JSON)',
    replaying: 'Replaying…',
    replayedHeading: (file: string, entries: number) => `Replayed from ${file} (${entries} events)`,
    replayedBadge: 'replayed',
    sameAsLive: 'same as live',
    differsFromLive: (live: string) => `live: ${live}`,
    notJson: 'This file is not JSON. Choose a journal exported from the developer panel.',
    cutOff:
      'This journal file is cut off: it ends before its JSON does (an interrupted download or copy?). Export it again.',
    wrongFormat:
      'This file is not a DDEX journal (format "ddex-journal", version 1, with entries). Choose a journal exported from the developer panel.',
    truncated:
      'This journal is truncated: its oldest events were dropped, so it cannot rebuild the session. Export a journal from a shorter session.',
    failed: (message: string) => `The replay failed: ${message}`,
    unreadable: 'The file could not be read.',
  },

  diagram: {
    heading: 'Statechart diagram',
    machineLabel: 'Machine',
    loading: 'Drawing the diagram…',
    failed: (message: string) => `The diagram could not be drawn: ${message}`,
    legend: 'Highlighted: the states the machine is in now.',
    fit: 'Fit to panel',
    label: (machine: string, states: string) => `Statechart of ${machine}; current state: ${states}`,
    source: 'Mermaid source',
    session: "Show this session's transitions",
    sessionLegend: (taken: number, total: number) =>
      `Green: the states this session has been in and the transitions it has taken, ${taken} of ${total} (replayed from the journal).`,
    sessionReplaying: "Replaying this session's journal…",
    sessionFailed: (message: string) => `This session's transitions cannot be shown: ${message}`,
  },
} as const;
