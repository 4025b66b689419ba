import { spawn } from 'node:child_process';

// `npm test`: the test layers (`vitest run`) and the static checks side by side. The checks take
// turns with each other, beside the layers, rather than all running before them: on two cores the
// test layers leave room (a contract file mostly waits on the stack), and a failed check no longer
// hides what the tests would have said. The run fails when any part fails; each check's output is
// printed when it ends, the tests' as they go. Extra arguments go to Vitest (`npm test -- <files>`).

type Outcome = { name: string; code: number; ms: number; output: string };

const CHECKS = ['typecheck', 'lint', 'format:check', 'docs:check', 'functions:check', 'size'] as const;

function run(command: string, args: string[], capture: boolean): Promise<Omit<Outcome, 'name'>> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => done({ code: code ?? 1, ms: performance.now() - started, output }));
  });
}

async function checks(): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const name of CHECKS) {
    const outcome = { name, ...(await run('npm', ['run', '--silent', name], true)) };
    outcomes.push(outcome);
    const verdict = outcome.code === 0 ? 'passed' : `FAILED (exit ${outcome.code})`;
    process.stderr.write(`\n[check] npm run ${name} ${verdict} in ${(outcome.ms / 1000).toFixed(1)} s\n`);
    if (outcome.code !== 0) process.stderr.write(outcome.output);
  }
  return outcomes;
}

async function main(): Promise<number> {
  // The browser the e2e layer drives must be there before Vitest's global setups start.
  const chromium = await run('bash', ['scripts/ensure-chromium.sh'], false);
  if (chromium.code !== 0) return chromium.code;
  const [layers, checked] = await Promise.all([
    run('npx', ['vitest', 'run', ...process.argv.slice(2)], false),
    checks(),
  ]);
  const failed = checked.filter((outcome) => outcome.code !== 0);
  process.stdout.write('\nChecks beside the tests\n');
  for (const outcome of checked) {
    const verdict = outcome.code === 0 ? 'ok    ' : 'FAILED';
    process.stdout.write(
      `  ${verdict} ${outcome.name.padEnd(16)} ${(outcome.ms / 1000).toFixed(1).padStart(6)} s\n`,
    );
  }
  const sizeReport = checked.find((outcome) => outcome.name === 'size');
  if (sizeReport?.code === 0) process.stdout.write(`\n${sizeReport.output.trim()}\n`);
  if (failed.length > 0) {
    process.stdout.write(`\nFailed: ${failed.map((outcome) => `npm run ${outcome.name}`).join(', ')}\n`);
    return 1;
  }
  return layers.code;
}

process.exitCode = await main();
