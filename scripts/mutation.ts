import { Stryker } from '@stryker-mutator/core';
import { unreachedFiles } from './lib/mutation-results.ts';

// Mutation testing of src/machines (issue 18): StrykerJS changes the machines' code one mutant at a
// time and runs the tests that reach it; a mutant that no test notices survives. The options live
// in stryker.config.mjs, the tests it runs in vitest.mutation.config.ts.
//
//   npm run test:mutation                        unit + model tests, every machine (goal 90 %)
//   npm run test:mutation -- --model-only        the model tests alone (goal 70 %)
//   npm run test:mutation -- --mutate src/machines/tab.machine.ts   one file (repeatable)
//   npm run test:mutation -- --check             exit 1 when the score is below the layer's goal
//
// Without --check the run only reports: a score under the goal while a machine is being worked on
// is information, not a failure. The HTML report is reports/mutation/index.html (model-only.html
// for --model-only), next to the same results as JSON.

type Options = ConstructorParameters<typeof Stryker>[0];
type MutantResult = Awaited<ReturnType<Stryker['runMutationTest']>>[number];

const layers = {
  all: { words: 'unit + model', goal: 90, report: 'index' },
  model: { words: 'model only', goal: 70, report: 'model-only' },
} as const;

const usage = 'usage: npm run test:mutation -- [--model-only] [--check] [--mutate <glob>]...';

/** Splits `a,b` into globs, leaving commas inside `{…}` alone. */
function splitGlobs(value: string): string[] {
  const globs: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < value.length; index += 1) {
    const char = value[index];
    if (char === '{') depth += 1;
    else if (char === '}') depth -= 1;
    else if (char === ',' && depth === 0) {
      globs.push(value.slice(start, index));
      start = index + 1;
    }
  }
  globs.push(value.slice(start));
  return globs.map((glob) => glob.trim()).filter((glob) => glob !== '');
}

function parseArgs(args: string[]) {
  let modelOnly = false;
  let check = false;
  const mutate: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '--model-only') modelOnly = true;
    else if (arg === '--check') check = true;
    else if (arg === '--mutate') {
      const value = args[index + 1];
      if (value === undefined || value.startsWith('--')) throw new Error(`--mutate needs a glob\n${usage}`);
      mutate.push(...splitGlobs(value));
      index += 1;
    } else if (arg.startsWith('--mutate=')) mutate.push(...splitGlobs(arg.slice('--mutate='.length)));
    else throw new Error(`unknown argument '${arg}'\n${usage}`);
  }
  return { modelOnly, check, mutate };
}

/** Stryker's mutation score: detected (killed or timed out) over valid (detected or not). */
function score(results: readonly MutantResult[]) {
  const count = (...statuses: MutantResult['status'][]) =>
    results.filter((result) => statuses.includes(result.status)).length;
  const killed = count('Killed', 'Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const valid = killed + survived + noCoverage;
  return { killed, survived, noCoverage, valid, percent: valid === 0 ? 100 : (killed / valid) * 100 };
}

const LOAD_HINT =
  'A test file that fails to load under instrumentation runs no test. To see why, run once with ' +
  '`npx stryker run --mutate <file> --dryRunOnly --cleanTempDir false`, then ' +
  '`npx vitest related <file> --run --config vitest.mutation.config.ts` inside .stryker-tmp/sandbox-*.';

function minutes(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

async function main(): Promise<number> {
  const { modelOnly, check, mutate } = parseArgs(process.argv.slice(2));
  const layer = modelOnly ? layers.model : layers.all;
  // Read by vitest.mutation.config.ts in every test runner Stryker starts.
  if (modelOnly) process.env['MUTATION_LAYER'] = 'model';
  else delete process.env['MUTATION_LAYER'];

  const options: Options = {
    htmlReporter: { fileName: `reports/mutation/${layer.report}.html` },
    jsonReporter: { fileName: `reports/mutation/${layer.report}.json` },
    ...(mutate.length > 0 ? { mutate } : {}),
  };
  const started = Date.now();
  const results = await new Stryker(options).runMutationTest().catch((error: unknown) => {
    if (error instanceof Error && error.message.includes('No tests were executed'))
      error.message = `${error.message}\n${LOAD_HINT}`;
    throw error;
  });
  const unreached = unreachedFiles(results);
  const { killed, survived, noCoverage, valid, percent } = score(results);
  const verdict = percent >= layer.goal ? 'reaches' : 'is below';
  process.stdout.write(
    [
      '',
      `Mutation score (${layer.words}): ${percent.toFixed(1)} % ${verdict} the ${layer.goal} % goal`,
      `  ${killed} killed, ${survived} survived, ${noCoverage} not covered, of ${valid} mutants` +
        ` (static mutants ignored); ${minutes(Date.now() - started)}`,
      `  report: reports/mutation/${layer.report}.html`,
      ...(unreached.length > 0
        ? [`  no test reached any mutant of: ${unreached.join(', ')}`, `  ${LOAD_HINT}`]
        : []),
      '',
    ].join('\n'),
  );
  return check && percent < layer.goal ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
