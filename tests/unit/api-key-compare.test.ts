import { describe, expect, it } from 'vitest';
import { isOneOfKeys as gatewayIsOneOfKeys } from '../../stack/gateway/http.ts';
import { isOneOfKeys as functionIsOneOfKeys } from '../../supabase/functions/_shared/caller.ts';

// A presented API key is compared with the project's in constant time, by the gateway (Node) and
// by the functions (Deno, Web Crypto). Both answer exactly as a plain comparison would.

const KEYS = ['sb_publishable_local', 'sb_secret_local'];

const COMPARES: {
  runtime: string;
  isOneOf: (presented: string | null, keys: string[]) => Promise<boolean>;
}[] = [
  { runtime: 'the gateway', isOneOf: async (presented, keys) => gatewayIsOneOfKeys(presented, keys) },
  { runtime: 'the functions', isOneOf: functionIsOneOfKeys },
];

for (const { runtime, isOneOf } of COMPARES) {
  describe(`API keys compared by ${runtime}`, () => {
    it('takes each of the keys', async () => {
      expect(await isOneOf('sb_publishable_local', KEYS)).toBe(true);
      expect(await isOneOf('sb_secret_local', KEYS)).toBe(true);
    });

    it('refuses anything else: a prefix, a longer key, another case, nothing', async () => {
      for (const presented of ['sb_publishable_loca', 'sb_publishable_localx', 'SB_SECRET_LOCAL', '', null]) {
        expect(await isOneOf(presented, KEYS)).toBe(false);
      }
    });

    it('never takes an empty key, even when one is configured', async () => {
      expect(await isOneOf('', ['', ...KEYS])).toBe(false);
      expect(await isOneOf(null, [''])).toBe(false);
    });
  });
}
