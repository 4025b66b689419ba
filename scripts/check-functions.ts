import { checkFunctions } from '../stack/functions/deno.ts';

// `npm run functions:check` (part of `npm test`): `deno check` of every Edge
// Function's entry point with its own import map, and `deno lint` over them,
// with the Deno the project installs and no download from anywhere.

const results = checkFunctions();
for (const { what, ok, output } of results) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok || output.includes('warning')) console.log(output.replace(/^/gm, '     '));
}
process.exitCode = results.every((result) => result.ok) ? 0 : 1;
