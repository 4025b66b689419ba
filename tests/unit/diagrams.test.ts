import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, createMachine, not, or, stateIn, type AnyStateMachine } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import {
  DOCS_DIR,
  FIX_COMMAND,
  REPO_ROOT,
  checkDiagrams,
  findDrift,
  loadMachines,
  renderDocs,
  summaries,
  writeDocs,
  type MachineEntry,
} from '../../scripts/diagrams.ts';
import { machineDiagram, nodeId } from '../../scripts/machine-diagram.ts';
import { toastMachine } from '../../src/machines/toast.machine.ts';

const run = promisify(execFile);

/** The arrows of a diagram as `from --> to` with their label lines. */
function arrows(diagram: string): { from: string; to: string; labels: string[] }[] {
  return diagram
    .split('\n')
    .map((line) => /^\s*(\S+) --> (\S+): (.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, from = '', to = '', label = '']) => ({ from, to, labels: label.split('<br/>') }));
}

function labelsFrom(diagram: string, from: string, to: string): string[] {
  return arrows(diagram).find((a) => a.from === from && a.to === to)?.labels ?? [];
}

describe('machineDiagram', () => {
  it('nests compound states, each with its initial state', () => {
    const machine = createMachine({
      id: 'door',
      initial: 'closed',
      states: {
        closed: { initial: 'locked', states: { locked: { on: { unlock: 'unlocked' } }, unlocked: {} } },
        open: { type: 'final' },
      },
    });
    const diagram = machineDiagram(machine);
    expect(diagram.split('\n')).toEqual([
      'stateDiagram-v2',
      '  state "closed" as closed',
      '  state closed {',
      '    state "locked" as closed__locked',
      '    state "unlocked" as closed__unlocked',
      '    [*] --> closed__locked',
      '  }',
      '  state "open" as open',
      '  [*] --> closed',
      '  open --> [*]',
      '  closed__locked --> closed__unlocked: unlock',
      '',
    ]);
  });

  it('separates parallel regions, in a box of their own when the machine itself is parallel', () => {
    const region = { initial: 'off', states: { off: { on: { toggle: 'on' } }, on: {} } };
    const nested = machineDiagram(
      createMachine({
        id: 'm',
        initial: 'p',
        states: { p: { type: 'parallel', states: { a: region, b: region } } },
      }),
    );
    expect(nested).toContain('    state "a" as p__a\n    state p__a {');
    expect(nested).toContain('    }\n    --\n    state "b" as p__b');
    expect(nested).not.toMatch(/\[\*\] --> p__[ab]$/m);

    const root = machineDiagram(
      createMachine({ id: 'lights', type: 'parallel', states: { a: region, b: region } }),
    );
    expect(root.split('\n').slice(0, 3)).toEqual([
      'stateDiagram-v2',
      '  state "lights" as root {',
      '    state "a" as a',
    ]);
    expect(root).toContain('\n    --\n');
    // Mermaid refuses `--` outside a box.
    expect(root).not.toMatch(/^ {2}--$/m);
  });

  it('labels guards: named with params, inline, stateIn, and/or/not, and the unguarded else', () => {
    const machine = createMachine(
      {
        id: 'g',
        type: 'parallel',
        states: {
          mode: { initial: 'x', states: { x: {}, y: {} } },
          main: {
            initial: 'a',
            states: {
              a: {
                on: {
                  go: [
                    { guard: 'named', target: 'b' },
                    { guard: { type: 'withParams', params: { count: 2 } }, target: 'c' },
                    { guard: () => true, target: 'd' },
                    { target: 'e' },
                  ],
                  check: [
                    { guard: stateIn('#g.mode.y'), target: 'b' },
                    { guard: and(['named', not('other')]), target: 'c' },
                    { guard: or(['named', 'other']), target: 'd' },
                  ],
                },
              },
              b: {},
              c: {},
              d: {},
              e: {},
            },
          },
        },
      },
      { guards: { named: () => true, other: () => false, withParams: () => true } },
    );
    const diagram = machineDiagram(machine);
    expect(labelsFrom(diagram, 'main__a', 'main__b')).toEqual(['go [named]', 'check [in mode.y]']);
    expect(labelsFrom(diagram, 'main__a', 'main__c')).toEqual([
      'go [withParams(count=2)]',
      'check [(named and not other)]',
    ]);
    expect(labelsFrom(diagram, 'main__a', 'main__d')).toEqual(['go [guard]', 'check [(named or other)]']);
    expect(labelsFrom(diagram, 'main__a', 'main__e')).toEqual(['go [else]']);
  });

  it('names done, error, after and always the way a reader says them', () => {
    const machine = createMachine(
      {
        id: 'fetcher',
        initial: 'loading',
        states: {
          loading: {
            invoke: { id: 'fetchRows', src: 'fetchRows', onDone: 'ready', onError: 'failed' },
            after: { slow: 'slow', 30000: 'failed' },
          },
          slow: { always: 'loading' },
          ready: { type: 'parallel', states: { r: { initial: 'x', states: { x: { type: 'final' } } } } },
          failed: {},
        },
      },
      { delays: { slow: 1000 } },
    );
    const diagram = machineDiagram(machine);
    expect(labelsFrom(diagram, 'loading', 'ready')).toEqual(['done fetchRows']);
    expect(labelsFrom(diagram, 'loading', 'failed')).toEqual(['error fetchRows', 'after 30000 ms']);
    expect(labelsFrom(diagram, 'loading', 'slow')).toEqual(['after slow (1000 ms)']);
    expect(labelsFrom(diagram, 'slow', 'loading')).toEqual(['always']);
  });

  it('draws transitions of the machine, or of a state into its own children, from an "any state" node', () => {
    const machine = createMachine({
      id: 'tabs',
      initial: 'one',
      on: { reset: '.one', ping: {} },
      states: {
        one: {},
        two: { initial: 'a', on: { restart: '.a', 'two.*': {} }, states: { a: {}, b: {} } },
      },
    });
    const diagram = machineDiagram(machine);
    expect(labelsFrom(diagram, '_any_root', 'one')).toEqual(['reset']);
    expect(labelsFrom(diagram, '_any_root', '_any_root')).toEqual(['ping']);
    expect(labelsFrom(diagram, '_any_two', 'two__a')).toEqual(['restart']);
    // A state's targetless transition loops on its own box, which Mermaid can draw.
    expect(labelsFrom(diagram, 'two', 'two')).toEqual(['two.*']);
    expect(diagram).toContain('  state two {\n    state "a" as two__a\n    state "b" as two__b\n');
    expect(diagram).toContain('    state "any state" as _any_two\n');
    expect(diagram).toContain('  class _any_root,_any_two anyState\n');
    // Mermaid cannot draw an arrow from the outermost box or between a box and what it contains.
    expect(arrows(diagram).map((a) => a.from)).not.toContain('root');
    expect(labelsFrom(diagram, 'two', 'two__a')).toEqual([]);
  });

  it('draws a transition to an ancestor to where that ancestor starts again', () => {
    const machine = createMachine({
      id: 'm',
      initial: 'outer',
      states: {
        outer: {
          initial: 'first',
          states: { first: { on: { again: '#m.outer' } }, second: { on: { again: '#m.outer' } } },
        },
      },
    });
    const diagram = machineDiagram(machine);
    expect(labelsFrom(diagram, 'outer__second', 'outer__first')).toEqual(['again (re-enters outer)']);
    expect(labelsFrom(diagram, 'outer__first', 'outer__first')).toEqual(['again (re-enters outer)']);
  });

  it('keeps labels inside what Mermaid reads as one label', () => {
    const machine = createMachine({
      id: 'm',
      initial: 'a',
      states: { a: { on: { 'odd;name:with<html>': 'b', '*': 'a' } }, b: {} },
    });
    const diagram = machineDiagram(machine);
    expect(labelsFrom(diagram, 'a', 'b')).toEqual(['odd,name∶with‹html›']);
    expect(labelsFrom(diagram, 'a', 'a')).toEqual(['* (any other event)']);
  });
});

describe('diagrams of the portal machines', () => {
  let machines: MachineEntry[];
  beforeAll(async () => {
    machines = await loadMachines();
  });

  it('covers every machine file, each with a summary', () => {
    expect(machines.map((m) => m.name).sort()).toEqual(Object.keys(summaries).sort());
  });

  it("finds the machines in a feature's folder too, each named by its file", () => {
    const sourceOf = (name: string) => machines.find((m) => m.name === name)?.source;
    expect(sourceOf('tab')).toBe('src/machines/tab.machine.ts');
    expect(sourceOf('portal')).toBe('src/machines/portal/portal.machine.ts');
    expect(sourceOf('profile-load')).toBe('src/machines/profile/profile-load.machine.ts');
  });

  it('are well-formed Mermaid that draws every transition once', () => {
    for (const { name, machine } of machines) {
      const diagram = machineDiagram(machine);
      const lines = diagram.trimEnd().split('\n');
      expect(lines[0], name).toBe('stateDiagram-v2');
      const statement =
        /^\s+(state "[^"]+" as \w+( \{)?|state \w+ \{|\}|--|\[\*\] --> \w+|\w+ --> \[\*\]|\w+ --> \w+: [^;]+|classDef \w+ [^;]+|class [\w,]+ \w+)$/;
      for (const line of lines.slice(1)) expect(line, `${name}: ${line}`).toMatch(statement);
      const opened = lines.filter((l) => l.endsWith('{')).length;
      expect(lines.filter((l) => l.trim() === '}').length, name).toBe(opened);

      const declared = new Set(lines.map((l) => / as (\w+)/.exec(l)?.[1]).filter(Boolean));
      for (const { from, to } of arrows(diagram)) {
        expect(declared, `${name}: ${from}`).toContain(from);
        expect(declared, `${name}: ${to}`).toContain(to);
      }
      // What makes Mermaid fail to draw: an arrow from the outermost box, or between a box and a
      // state inside it.
      const ids = new Map(getStateNodes(machine.root).map((node) => [nodeId(node), node.path.join('.')]));
      for (const { from, to } of arrows(diagram)) {
        expect(from, name).not.toBe('root');
        const [outer, inner] = [ids.get(from), ids.get(to)];
        if (outer !== undefined && inner !== undefined && outer !== inner) {
          expect(inner.startsWith(`${outer}.`), `${name}: ${from} --> ${to}`).toBe(false);
          expect(outer.startsWith(`${inner}.`), `${name}: ${from} --> ${to}`).toBe(false);
        }
      }

      const drawn = arrows(diagram).reduce((total, a) => total + a.labels.length, 0);
      const declaredTransitions = [machine.root, ...getStateNodes(machine.root)].reduce(
        (total, node) =>
          total +
          [...node.transitions.values()].flat().reduce((n, t) => n + (t.target?.length ?? 1), 0) +
          (node.always ?? []).reduce((n, t) => n + (t.target?.length ?? 1), 0),
        0,
      );
      expect(drawn, name).toBe(declaredTransitions);
    }
  });

  it('are the ones committed in docs/machines (else run `npm run docs:diagrams`)', async () => {
    expect(await checkDiagrams(REPO_ROOT, machines)).toEqual([]);
  });
});

describe('docs:check', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'diagrams-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** The toast machine with one transition more, as if someone had edited it. */
  function editedToast(): AnyStateMachine {
    const { config } = toastMachine;
    const showing = config.states?.showing ?? {};
    const on = { ...showing.on, 'toast.extra': 'idle' } as typeof showing.on;
    return createMachine(
      { ...config, states: { ...config.states, showing: { ...showing, on } } },
      toastMachine.implementations,
    ) as AnyStateMachine;
  }

  it('fails when a machine changes without its diagram, and passes once regenerated', async () => {
    const machines = await loadMachines();
    await writeDocs(root, await renderDocs(machines));
    expect(await checkDiagrams(root, machines)).toEqual([]);

    const changed = machines.map((m) => (m.name === 'toast' ? { ...m, machine: editedToast() } : m));
    expect(await checkDiagrams(root, changed)).toEqual([
      `${DOCS_DIR}/toast.md is out of date with src/machines/toast.machine.ts: run \`${FIX_COMMAND}\` and commit the result.`,
      // The index counts the machine's transitions.
      `${DOCS_DIR}/README.md is out of date with src/machines: run \`${FIX_COMMAND}\` and commit the result.`,
    ]);

    await writeDocs(root, await renderDocs(changed));
    expect(await checkDiagrams(root, changed)).toEqual([]);
    expect(await readFile(join(root, DOCS_DIR, 'toast.md'), 'utf8')).toContain('toast.extra');
  });

  it('reports a missing diagram and one whose machine is gone, and regenerating fixes both', async () => {
    const machines = await loadMachines();
    const expected = await renderDocs(machines);
    await writeDocs(root, expected);
    await rm(join(root, DOCS_DIR, 'tab.md'));
    await writeFile(join(root, DOCS_DIR, 'retired.md'), '# retired\n');
    expect(await checkDiagrams(root, machines)).toEqual([
      `${DOCS_DIR}/tab.md is missing: run \`${FIX_COMMAND}\` and commit the result.`,
      `${DOCS_DIR}/retired.md belongs to no machine in src/machines: run \`${FIX_COMMAND}\` and commit the result.`,
    ]);
    await writeDocs(root, expected);
    expect(await findDrift(root, expected)).toEqual([]);
  });

  it("names the file of a stale diagram whose machine sits in a feature's folder", async () => {
    const machines = await loadMachines();
    await writeDocs(root, await renderDocs(machines));
    const changed = machines.map((m) => (m.name === 'portal' ? { ...m, machine: toastMachine } : m));
    expect(await checkDiagrams(root, changed)).toEqual([
      `${DOCS_DIR}/portal.md is out of date with src/machines/portal/portal.machine.ts: run \`${FIX_COMMAND}\` and commit the result.`,
      `${DOCS_DIR}/README.md is out of date with src/machines: run \`${FIX_COMMAND}\` and commit the result.`,
    ]);
  });

  it('refuses two machines of one name in different folders: their diagrams would be one file', async () => {
    const twins = join(root, 'twins');
    for (const folder of ['a', 'b']) {
      await mkdir(join(twins, 'src', 'machines', folder), { recursive: true });
      await writeFile(
        join(twins, 'src', 'machines', folder, 'twin.machine.ts'),
        'export const twinMachine = { root: {}, transition: () => undefined };\n',
      );
    }
    await expect(loadMachines(twins)).rejects.toThrow(
      /^src\/machines\/[ab]\/twin\.machine\.ts and src\/machines\/[ab]\/twin\.machine\.ts are both the "twin" machine/,
    );
  });

  it('refuses a machine that has no summary, naming where to add it', async () => {
    const stray = { name: 'stray', machine: toastMachine, source: 'src/machines/stray.machine.ts' };
    await expect(renderDocs([stray])).rejects.toThrow(
      'add one sentence for it to `summaries` in scripts/diagrams.ts',
    );
  });

  it(
    'as a command: exit 1 naming the stale file after a machine file is edited',
    { timeout: 60_000 },
    async () => {
      // A copy of the parts of the repository the script reads, with its own src/machines.
      const copy = join(root, 'repo');
      await mkdir(copy, { recursive: true });
      for (const part of ['src', 'scripts', 'package.json', 'tsconfig.json', '.prettierrc.json']) {
        await cp(join(REPO_ROOT, part), join(copy, part), { recursive: true });
      }
      await symlink(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
      const tsx = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
      const script = join(copy, 'scripts', 'diagrams.ts');
      const check = () =>
        run(tsx, [script, '--check'], { cwd: copy }).then(
          ({ stdout }) => ({ code: 0, out: stdout }),
          (error: { code: number; stderr: string }) => ({ code: error.code, out: error.stderr }),
        );

      await run(tsx, [script], { cwd: copy });
      expect(await check()).toEqual({ code: 0, out: 'docs:check: docs/machines matches src/machines.\n' });

      const file = join(copy, 'src', 'machines', 'toast.machine.ts');
      const source = await readFile(file, 'utf8');
      const edited = source.replace(
        "'toast.dismiss': 'idle',",
        "'toast.dismiss': 'idle',\n        'toast.extra': 'idle',",
      );
      expect(edited).not.toBe(source);
      await writeFile(file, edited);
      expect(await check()).toEqual({
        code: 1,
        out: [
          `${DOCS_DIR}/toast.md is out of date with src/machines/toast.machine.ts: run \`${FIX_COMMAND}\` and commit the result.`,
          `${DOCS_DIR}/README.md is out of date with src/machines: run \`${FIX_COMMAND}\` and commit the result.`,
          '',
        ].join('\n'),
      });
    },
  );
});
