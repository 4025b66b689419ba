import { describe, expect, it } from 'vitest';
import { walletCopy } from '../../src/copy/index.ts';
import { freshChainNotice, parseFlags, readPorts, SettingsError } from '../../stack/settings.ts';

describe('stack settings', () => {
  it('uses the default ports and honours overrides', () => {
    expect(readPorts({})).toEqual({ app: 5173, gateway: 54321, rpc: 8545, mailbox: 54324, smtp: 54325 });
    expect(readPorts({ STACK_GATEWAY_PORT: '60001', STACK_APP_PORT: ' 6000 ' })).toMatchObject({
      gateway: 60001,
      app: 6000,
    });
  });

  it.each(['abc', '0', '70000', '12.5', '-1'])(
    'refuses the port %s with a message naming the key',
    (value) => {
      expect(() => readPorts({ STACK_GATEWAY_PORT: value })).toThrow(
        new SettingsError(`STACK_GATEWAY_PORT must be a port number from 1 to 65535, got "${value}".`),
      );
    },
  );

  it('reads --fresh, --with-app and email confirmations from flags or env', () => {
    expect(parseFlags([], {})).toEqual({
      fresh: false,
      withApp: false,
      emailConfirmations: false,
      functions: 'deno',
    });
    expect(parseFlags(['--fresh', '--with-app', '--confirm-email'], {})).toEqual({
      fresh: true,
      withApp: true,
      emailConfirmations: true,
      functions: 'deno',
    });
    expect(parseFlags([], { STACK_EMAIL_CONFIRMATIONS: 'true' }).emailConfirmations).toBe(true);
  });

  it('runs the functions under Deno unless --functions node asks for the in-process handlers', () => {
    expect(parseFlags(['--functions', 'node'], {}).functions).toBe('node');
    expect(parseFlags(['--functions=deno', '--fresh'], {})).toMatchObject({ functions: 'deno', fresh: true });
    expect(() => parseFlags(['--functions', 'bun'], {})).toThrow(/--functions takes deno or node, got "bun"/);
    expect(() => parseFlags(['--functions'], {})).toThrow(/--functions takes deno or node, got ""/);
  });

  it('refuses unknown options and unreadable booleans', () => {
    expect(() => parseFlags(['--fersh'], {})).toThrow(/Unknown option "--fersh"/);
    expect(() => parseFlags([], { STACK_EMAIL_CONFIRMATIONS: 'maybe' })).toThrow(
      /STACK_EMAIL_CONFIRMATIONS must be true or false/,
    );
  });
});

describe('a start afresh', () => {
  it("tells once how to clear a wallet that used the old chain, with the portal's own steps", () => {
    const notice = freshChainNotice(parseFlags(['--fresh'], {}));
    const steps = (text: string) => /\((MetaMask: [^)]+)\)/.exec(text)?.[1];
    expect(notice).not.toBeNull();
    expect(steps(notice ?? '')).toBeDefined();
    expect(steps(notice ?? '')).toBe(steps(walletCopy.nonceAhead));
    expect(freshChainNotice(parseFlags([], {}))).toBeNull();
  });
});
