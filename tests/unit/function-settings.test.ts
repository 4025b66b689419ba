import { describe, expect, it } from 'vitest';
import {
  parseFunctionSettings,
  readFunctionSettings,
  verifiesJwt,
} from '../../stack/gateway/function-settings.ts';

describe('the functions’ settings from supabase/config.toml', () => {
  it('reads verify_jwt per function, and verifies by default as hosted does', () => {
    const settings = parseFunctionSettings(`
[functions.open]   # a webhook
verify_jwt = false

[functions."quoted-name"]
verify_jwt = true

[functions.bare]

[auth]
verify_jwt = false
`);
    expect(verifiesJwt(settings, 'open')).toBe(false);
    expect(verifiesJwt(settings, 'quoted-name')).toBe(true);
    expect(verifiesJwt(settings, 'bare')).toBe(true);
    expect(verifiesJwt(settings, 'not-listed')).toBe(true);
  });

  it('has process-payments open to Tatum, record-transaction and link-wallet behind JWT verification', () => {
    const settings = readFunctionSettings('supabase/config.toml');
    expect(verifiesJwt(settings, 'process-payments')).toBe(false);
    expect(verifiesJwt(settings, 'record-transaction')).toBe(true);
    expect(verifiesJwt(settings, 'link-wallet')).toBe(true);
  });
});
