// Every test client is 127.0.0.1 to the gateway, so its per-address limit on sign-ups and
// sign-ins (hosted Auth's 30 per 5 minutes by default) would count the whole run as one person.
// The stacks the tests share, and each file's own, allow this many instead; the limit itself is
// tested on a stack that keeps a small one (tests/contract/auth-rate-limit.test.ts).
export const TEST_AUTH_RATE_LIMIT = '100000/60';
