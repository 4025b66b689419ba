import { createActor, fromPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createJournal } from '../../src/devtools/journal.ts';
import { redact, REDACTED } from '../../src/devtools/redact.ts';
import { sendMachine, type PrepareTransferInput } from '../../src/machines/send/send.machine.ts';
import { faucetMachine, type HumanCheckWidget } from '../../src/machines/faucet/faucet.machine.ts';
import { walletProofMachine, type SignProofInput } from '../../src/machines/profile/wallet-proof.machine.ts';
import type { FaucetClaim } from '../../src/domain/faucet.ts';
import type { Profile } from '../../src/domain/profile.ts';
import type { WalletNonce, WalletProof } from '../../src/domain/wallet.ts';
import type { PreparedTransfer } from '../../src/services/token/types.ts';

// Redaction is structural: a value is replaced for where it sits (its key) or
// what it is (the send form's sealed key), before anything is stored; then a
// defensive rule by shape catches a private key under any other key.

const PRIVATE_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const TX_HASH = `0x${'ab12'.repeat(16)}`;
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** The send machine's SealedKey, built the way it builds it. */
const sealed = (text: string) =>
  Object.freeze({ reveal: () => text, toJSON: () => '[private key]', toString: () => '[private key]' });

describe('redact: by key', () => {
  it.each([
    'password',
    'Password',
    'newPassword',
    'privateKey',
    'private_key',
    'PRIVATE-KEY',
    'secret',
    'webhookSecret',
    'client_secret',
    'token',
    'access_token',
    'refresh_token',
    'accessToken',
    'provider_token',
    'apiKey',
    'api_key',
    'X-Api-Key',
    'authorization',
    'Authorization',
    'cookie',
    'jwt',
    'passphrase',
    'mnemonic',
    'signature',
    'proofSignature',
  ])('replaces the value under %s', (key) => {
    expect(redact({ [key]: 'hunter2' })).toEqual({ [key]: REDACTED });
    expect(redact({ deep: [{ [key]: { nested: 'hunter2' } }] })).toEqual({ deep: [{ [key]: REDACTED }] });
  });

  it('keeps what reveals nothing, so a replay’s "field missing" guards decide the same', () => {
    expect(redact({ password: '', privateKey: '   ', token: null, secret: undefined })).toEqual({
      password: '',
      privateKey: '   ',
      token: null,
    });
  });

  it('keeps flags, counts and names that only look alike', () => {
    const config = {
      tokenConfigured: true,
      tokenAddress: ADDRESS,
      api_key_count: 2,
      hasPassword: true,
      passwordHint: 'the usual',
      tokenTypes: ['native'],
    };
    expect(redact(config)).toEqual(config);
  });

  it('redacts inside a session but keeps its user', () => {
    const session = {
      access_token: 'eyJ.abc.def',
      refresh_token: 'r-1',
      user: { id: 'u-1', email: 'a@b.co' },
    };
    expect(redact({ session })).toEqual({
      session: { access_token: REDACTED, refresh_token: REDACTED, user: { id: 'u-1', email: 'a@b.co' } },
    });
  });

  it('reaches actor inputs in xstate.init events and errors’ own fields', () => {
    expect(redact({ type: 'xstate.init', input: { email: 'a@b.co', password: 'hunter2' } })).toEqual({
      type: 'xstate.init',
      input: { email: 'a@b.co', password: REDACTED },
    });
    const failure = Object.assign(new Error('denied'), { apiKey: 'k-123' });
    expect(redact({ error: failure })).toEqual({
      error: { $error: { name: 'Error', message: 'denied', apiKey: REDACTED } },
    });
  });
});

describe('redact: the sealed private key', () => {
  it('is replaced wherever it sits, whatever its key', () => {
    const result = redact({ input: { key: sealed(PRIVATE_KEY), to: ADDRESS }, list: [sealed('x')] });
    expect(result).toEqual({ input: { key: REDACTED, to: ADDRESS }, list: [REDACTED] });
  });

  it('never reaches the journal of a real send machine, in events or actor inputs', async () => {
    const { journal, inspect } = createJournal();
    const machine = sendMachine.provide({
      actors: {
        prepareTransfer: fromPromise<PreparedTransfer, PrepareTransferInput>(async () => {
          throw Object.assign(new Error('This private key belongs to another account.'), {
            reason: 'wrong-account',
          });
        }),
      },
      actions: { showToast: () => undefined, report: () => undefined },
    });
    const send = createActor(machine, { input: { tokenConfigured: true }, inspect }).start();
    send.send({ type: 'wallet.changed', address: ADDRESS, chainId: 31337 });
    send.send({ type: 'send.submit', recipient: ADDRESS, amount: '1', privateKey: PRIVATE_KEY });
    await new Promise((resolve) => setImmediate(resolve));
    const text = JSON.stringify(journal.export()).toLowerCase();
    expect(text).toContain('xstate.init');
    expect(text).toContain('wrong-account');
    expect(text).not.toContain(PRIVATE_KEY.slice(2));
    expect(text).not.toContain('[private key]');
  });
});

describe('redact: a wallet proof’s signature', () => {
  const SIGNATURE = `0x${'5e1f'.repeat(32)}1b`;

  it('never reaches the journal of a real proof, in the done event or the next actor’s input', async () => {
    const { journal, inspect } = createJournal();
    const proof: WalletProof = {
      message: 'example.com wants you to sign in … Nonce: Abc123def456ghi789',
      signature: SIGNATURE,
    };
    const machine = walletProofMachine.provide({
      actors: {
        requestWalletNonce: fromPromise<WalletNonce, { address: string }>(async () => ({
          nonce: 'Abc123def456ghi789',
          expiresAt: '2026-03-03T00:10:00Z',
        })),
        signProof: fromPromise<WalletProof, SignProofInput>(async () => proof),
        linkWallet: fromPromise<Profile, WalletProof>(() => new Promise<never>(() => undefined)),
      },
      actions: { showToast: () => undefined, tellParent: () => undefined },
    });
    const prover = createActor(machine, { input: { address: ADDRESS }, inspect }).start();
    for (let round = 0; round < 5; round += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(prover.getSnapshot().value).toBe('verifying');
    const text = JSON.stringify(journal.export()).toLowerCase();
    expect(text).toContain('xstate.done.actor.signproof');
    // The message is no secret (the replay needs it); the signature is.
    expect(text).toContain('abc123def456ghi789');
    expect(text).not.toContain(SIGNATURE.slice(2, 40).toLowerCase());
    prover.stop();
  });
});

describe('redact: a private key by its shape', () => {
  it('replaces a 32-byte hex value under a key that is no hash field, with or without 0x', () => {
    expect(redact({ note: PRIVATE_KEY, other: PRIVATE_KEY.slice(2), padded: ` ${PRIVATE_KEY} ` })).toEqual({
      note: REDACTED,
      other: REDACTED,
      padded: REDACTED,
    });
    expect(redact([PRIVATE_KEY])).toEqual([REDACTED]);
  });

  it('keeps transaction and block hashes under their fields', () => {
    const hashes = {
      hash: TX_HASH,
      txHash: TX_HASH,
      tx_hash: TX_HASH,
      transaction_hash: TX_HASH,
      p_tx_hash: TX_HASH,
      lastHash: TX_HASH,
      blockHash: TX_HASH,
    };
    expect(redact(hashes)).toEqual(hashes);
  });

  it('keeps what is no 32-byte hex value: a signed transaction, an address, a sentence with a hash', () => {
    const kept = {
      serialized: `0x02f8${'cd'.repeat(110)}`,
      address: ADDRESS,
      description: `Transaction hash: ${TX_HASH}`,
      short: `0x${'a'.repeat(63)}`,
      long: `0x${'a'.repeat(65)}`,
      notHex: `0x${'g'.repeat(64)}`,
    };
    expect(redact(kept)).toEqual(kept);
  });
});

describe("redact: the faucet's human check", () => {
  it('keeps the check’s response token out of the journal while the claim carries it', async () => {
    const TOKEN = '10000000-aaaa-bbbb-cccc-000000000001';
    const { journal, inspect } = createJournal();
    const machine = faucetMachine.provide({
      actors: {
        loadHumanCheck: fromPromise<HumanCheckWidget>(async () => ({ kind: 'local' })),
        // The claim stays under way: the token is in its input the whole time.
        claimFaucet: fromPromise<FaucetClaim, { captchaToken: string }>(() => new Promise(() => undefined)),
      },
      actions: { showToast: () => undefined, report: () => undefined },
    });
    const faucet = createActor(machine, { inspect }).start();
    faucet.send({ type: 'faucet.claim' });
    await new Promise((resolve) => setImmediate(resolve));
    faucet.send({ type: 'faucet.humanChecked', token: TOKEN });
    await new Promise((resolve) => setImmediate(resolve));
    expect(faucet.getSnapshot().matches('claiming')).toBe(true);
    const text = JSON.stringify(journal.export());
    expect(text).toContain('claimFaucet');
    expect(text).not.toContain(TOKEN);
  });
});
