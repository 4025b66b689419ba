// The test stacks hash passwords at bcrypt cost 4 instead of lite's 10: the same algorithm and the
// same checks, each hash about 1 ms instead of about 50 ms of the one event loop that serves every
// test worker's gateway. It is set in the test runner's process only (the global setups start the
// gateways there); `npm start`, `npm run stack` and the benchmarks keep lite's cost, and a hosted
// project hashes with GoTrue's own. A cost set from outside is kept.
export function hashPasswordsCheaply(): void {
  process.env['LITE_AUTH_BCRYPT_COST'] ??= '4';
}
