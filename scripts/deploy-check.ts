import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEnv } from 'vite';
import { checkFunctions } from '../stack/functions/deno.ts';
import { loadProject } from '../stack/postgres/load-project.ts';
import { startPostgres } from '../stack/postgres/server.ts';
import { configuredOrigins } from './lib/content-security-policy.ts';
import { checkAppKeys, checkFunctionSecrets, parseEnvFile, type Problem } from './lib/deploy-config.ts';

// `npm run deploy:check`: validates a hosted configuration before deploying
// (docs/deploy.md#checking-before-you-deploy). It reads the app's keys the way
// `vite build` does (.env, .env.production, their .local files, the
// environment) and the functions' secrets from supabase/functions/.env (the
// file `supabase secrets set --env-file` takes) and the environment; then it
// runs deno check on the functions, applies the migrations to a throw-away
// PostgreSQL 17 from scratch, and builds the app with its
// Content-Security-Policy. It never contacts a hosted service, and exits
// non-zero when anything is wrong.

const PROJECT_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SECRETS_FILE = join(PROJECT_DIR, 'supabase', 'functions', '.env');
const SECRET_KEYS = [
  'TATUM_WEBHOOK_SECRET',
  'DDEX_TOKEN_ADDRESS',
  'RPC_URL',
  'UNISWAP_V2_ROUTER',
  'CHAIN_ID',
  'SITE_URL',
];

let failures = 0;
const say = (line: string) => console.log(line);
const heading = (title: string) => say(`\n${title}`);
const good = (line: string) => say(`  ok    ${line}`);
const bad = (line: string) => {
  failures += 1;
  say(`  FAIL  ${line}`);
};

function report(problems: Problem[], keys: string[]) {
  for (const key of keys) {
    const mine = problems.filter((problem) => problem.key === key);
    if (mine.length === 0) good(key);
    for (const problem of mine) bad(`${problem.key} ${problem.message}`);
  }
  for (const problem of problems.filter((problem) => !keys.includes(problem.key))) {
    bad(`${problem.key} ${problem.message}`);
  }
}

say('deploy:check: the hosted configuration, checked here before anything is deployed');

heading('App keys (built into the bundle; .env, .env.production, the environment)');
const app = loadEnv('production', PROJECT_DIR, 'VITE_');
report(checkAppKeys(app), [
  'VITE_SUPABASE_URL',
  'VITE_SUPABASE_ANON_KEY',
  'VITE_RPC_URL',
  'VITE_DDEX_TOKEN_ADDRESS',
  'VITE_UNISWAP_V2_ROUTER',
]);

heading('Edge Function secrets (supabase/functions/.env, the environment)');
const secrets = existsSync(SECRETS_FILE) ? parseEnvFile(readFileSync(SECRETS_FILE, 'utf8')) : {};
for (const key of SECRET_KEYS) {
  const fromEnvironment = process.env[key];
  if (fromEnvironment) secrets[key] = fromEnvironment;
}
report(checkFunctionSecrets(secrets, app), SECRET_KEYS);

heading('Edge Functions (deno check and deno lint, as deployed)');
try {
  for (const { what, ok, output } of checkFunctions()) {
    if (ok) good(what);
    else bad(`${what}\n${output.replace(/^/gm, '        ')}`);
  }
} catch (error) {
  bad((error as Error).message);
}

heading('Migrations and seed on a throw-away PostgreSQL (a new hosted project’s baseline first)');
try {
  const server = await startPostgres();
  try {
    const loaded = await loadProject(server);
    const migrations = loaded.filter((file) => file.file.includes('/migrations/')).length;
    good(`PostgreSQL ${server.version}: the baseline, ${migrations} migrations and the seed applied`);
  } finally {
    await server.stop();
  }
} catch (error) {
  bad((error as Error).message);
}

heading('Production build with its Content-Security-Policy');
const outDir = mkdtempSync(join(tmpdir(), 'ddex-deploy-check-'));
try {
  const build = spawnSync(
    'npx',
    ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    {
      cwd: PROJECT_DIR,
      env: { ...process.env, ...app },
      encoding: 'utf8',
    },
  );
  if (build.status !== 0) {
    bad(`vite build failed:\n${`${build.stdout}${build.stderr}`.trim().replace(/^/gm, '        ')}`);
  } else {
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '';
    const missing = configuredOrigins(app).connect.filter((origin) => !policy.includes(origin));
    if (policy === '') bad('the built index.html carries no Content-Security-Policy');
    else if (missing.length > 0) bad(`the policy does not allow ${missing.join(', ')}`);
    else
      good(`built; the policy allows ${configuredOrigins(app).connect.join(', ') || 'only the page itself'}`);
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}

say(failures === 0 ? '\nReady to deploy.' : `\n${failures} problem(s): fix them before deploying.`);
process.exitCode = failures === 0 ? 0 : 1;
