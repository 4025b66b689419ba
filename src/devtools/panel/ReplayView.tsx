import { useState, type ChangeEvent } from 'react';
import styled from 'styled-components';
import { devtoolsCopy } from './devtools.copy.ts';
import { parseJournal, type JournalProblem } from './parse-journal.ts';
import { ReplayedMachine } from './ReplayedMachine.tsx';
import { Alert, Hint, PlainList, Section, SectionHeading } from './styles.ts';
import { MACHINE_IDS, type DevtoolsOptions, type ReplayedSystem } from './types.ts';
import { theme } from '../../ui/theme.ts';

// Import a journal file and replay it: the file is checked first (a clear
// message for each way it can be wrong), then replayed without any network,
// and the machines it rebuilt are listed, each labelled "replayed" and
// compared with the live one.

export type ReplayResult = { file: string; entries: number; system: ReplayedSystem };

type Props = {
  replay: DevtoolsOptions['replay'];
  result: ReplayResult | null;
  onResult: (result: ReplayResult | null) => void;
};

const problems: Record<JournalProblem, string> = {
  notJson: devtoolsCopy.replay.notJson,
  cutOff: devtoolsCopy.replay.cutOff,
  wrongFormat: devtoolsCopy.replay.wrongFormat,
  truncated: devtoolsCopy.replay.truncated,
};

export function ReplayView({ replay, result, onResult }: Props) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const copy = devtoolsCopy.replay;

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    setProblem(null);
    onResult(null);
    try {
      const parsed = parseJournal(await file.text());
      if (!parsed.ok) setProblem(problems[parsed.problem]);
      else {
        const system = await replay(parsed.recording);
        onResult({ file: file.name, entries: parsed.recording.entries.length, system });
      }
    } catch (error) {
      setProblem(copy.failed(error instanceof Error ? error.message : String(error)));
    } finally {
      setBusy(false);
      // The same file can be chosen again.
      input.value = '';
    }
  };

  return (
    <Section aria-labelledby="devtools-replay-heading">
      <SectionHeading id="devtools-replay-heading">{copy.heading}</SectionHeading>
      <Hint>{copy.description}</Hint>
      <FileLabel>
        {copy.fileLabel}
        <input type="file" accept="application/json,.json" disabled={busy} onChange={onFile} />
      </FileLabel>
      <div aria-live="polite">
        {busy ? <Hint>{copy.replaying}</Hint> : null}
        {problem ? <Alert role="alert">{problem}</Alert> : null}
      </div>
      {result ? (
        <Section aria-labelledby="devtools-replayed-heading">
          <SectionHeading id="devtools-replayed-heading">
            {copy.replayedHeading(result.file, result.entries)}
          </SectionHeading>
          <PlainList>
            {MACHINE_IDS.flatMap((id) => {
              const snapshot = result.system[id];
              return snapshot
                ? [
                    <li key={id}>
                      <ReplayedMachine id={id} snapshot={snapshot} />
                    </li>,
                  ]
                : [];
            })}
          </PlainList>
        </Section>
      ) : null}
    </Section>
  );
}

const FileLabel = styled.label`
  display: grid;
  gap: ${theme.space(1)};
  font-size: 0.875rem;
  font-weight: 600;
`;
