import { describe, expect, it } from 'vitest';
import { authCopy, profileCopy, walletCopy, walletProofCopy } from '../../../src/copy/index.ts';
import type { WalletProofRefusalCode } from '../../../src/domain/errors.ts';
import type { Profile } from '../../../src/domain/profile.ts';
import type { WalletError, WalletNonce, WalletProof } from '../../../src/domain/wallet.ts';
import {
  walletProofMachine,
  type SignProofInput,
  type WalletProofFact,
  type WalletProofOutput,
} from '../../../src/machines/profile/wallet-proof.machine.ts';
import { BackendError } from '../../../src/services/supabase/types.ts';
import { settle } from '../../support/deferred-actor.ts';
import { profileRow } from '../../support/fixtures.ts';
import { machineHarness } from '../../support/machines/harness.ts';

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const user = { id: '11111111-aaaa-4aaa-8aaa-111111111111', email: 'ada@example.com' };
const LINKED: Profile = profileRow(user, {
  wallet_address: ALICE,
  wallet_verified_at: '2026-03-03T00:00:00Z',
});
const NONCE: WalletNonce = { nonce: 'Abc123def456ghi789', expiresAt: '2026-03-03T00:10:00Z' };
const PROOF: WalletProof = {
  message: 'example.com wants you to sign in …',
  signature: `0x${'ab'.repeat(65)}`,
};

function start() {
  const h = machineHarness(walletProofMachine, { input: { address: ALICE } });
  const output = () => h.snapshot().output as WalletProofOutput | undefined;
  return {
    snapshot: h.snapshot,
    toasts: h.toasts,
    told: h.facts as WalletProofFact[],
    nonces: h.calls<WalletNonce, { address: string }>('requestWalletNonce'),
    signs: h.calls<WalletProof, SignProofInput>('signProof'),
    links: h.calls<Profile, WalletProof>('linkWallet'),
    output,
    state: () => h.snapshot().value,
  };
}

/** Started, with the nonce given and the wallet's signature in. */
async function signed() {
  const t = start();
  t.nonces[0]?.resolve(NONCE);
  await settle();
  t.signs[0]?.resolve(PROOF);
  await settle();
  return t;
}

const refusal = (code: WalletProofRefusalCode, status = 403) =>
  new BackendError(`the function's own words for ${code}`, code, status);

describe('wallet-proof machine: a proof that holds', () => {
  it('asks for a nonce for the address, has the wallet sign it, and ends with the linked profile', async () => {
    const t = start();
    expect(t.state()).toBe('requestingNonce');
    expect(t.nonces[0]?.input).toEqual({ address: ALICE });
    t.nonces[0]?.resolve(NONCE);
    await settle();
    expect(t.state()).toBe('signing');
    expect(t.signs[0]?.input).toEqual({
      address: ALICE,
      nonce: NONCE.nonce,
      expiresAt: NONCE.expiresAt,
      statement: walletProofCopy.statement,
    });
    expect(t.told).toEqual([]);
    t.signs[0]?.resolve(PROOF);
    await settle();
    expect(t.state()).toBe('verifying');
    // The profile machine hears the proof has left: a wallet change no longer stops it.
    expect(t.told).toEqual([{ type: 'walletProof.verifying' }]);
    expect(t.links[0]?.input).toEqual(PROOF);
    t.links[0]?.resolve(LINKED);
    await settle();
    expect(t.snapshot().status).toBe('done');
    expect(t.output()).toEqual({ profile: LINKED });
    expect(t.toasts).toEqual([]);
  });

  it('holds the signature only while it is checked', async () => {
    const t = await signed();
    expect(t.snapshot().context.proof).toEqual(PROOF);
    t.links[0]?.resolve(LINKED);
    await settle();
    expect(JSON.stringify(t.snapshot().context)).not.toContain(PROOF.signature);
  });

  it('states in plain words what the wallet is asked to sign, on one line', () => {
    expect(walletProofCopy.statement).not.toMatch(/\n/);
    expect(walletProofCopy.statement).toMatch(/costs nothing/);
  });
});

describe('wallet-proof machine: refusals end without a profile, with one toast', () => {
  it.each([
    ['the user declined (4001)', { code: 'rejected', message: null }, walletProofCopy.declined],
    ['another request is open in the wallet', { code: 'pending', message: null }, walletCopy.switchPending],
    ['the wallet went away', { code: 'not-installed', message: null }, walletCopy.notInstalled],
    ['the wallet failed in its own words', { code: 'unknown', message: 'Ledger locked' }, 'Ledger locked'],
    ['the wallet failed without a word', { code: 'unknown', message: null }, walletProofCopy.walletFailed],
  ] satisfies [string, WalletError, string][])('signing: %s', async (_, error, words) => {
    const t = start();
    t.nonces[0]?.resolve(NONCE);
    await settle();
    t.signs[0]?.reject(error);
    await settle();
    expect(t.toasts).toEqual([
      { title: walletProofCopy.notLinked, description: words, variant: 'destructive' },
    ]);
    expect(t.output()).toBeNull();
    expect(t.links).toHaveLength(0);
  });

  it('signing: a message that could not be built says why, as the wallet’s step', async () => {
    const t = start();
    t.nonces[0]?.resolve(NONCE);
    await settle();
    t.signs[0]?.reject(new Error('Invalid Sign-In with Ethereum message field "nonce".'));
    await settle();
    expect(t.toasts).toEqual([
      {
        title: walletProofCopy.notLinked,
        description: 'Invalid Sign-In with Ethereum message field "nonce".',
        variant: 'destructive',
      },
    ]);
  });

  it.each([
    ['proof_expired', walletProofCopy.refused.proof_expired],
    ['proof_replayed', walletProofCopy.refused.proof_replayed],
    ['proof_domain', walletProofCopy.refused.proof_domain],
    ['proof_chain', walletProofCopy.refused.proof_chain],
    ['proof_signature', walletProofCopy.refused.proof_signature],
    ['proof_nonce', walletProofCopy.refused.proof_nonce],
    ['malformed', walletProofCopy.refused.malformed],
    ['wallet_taken', walletProofCopy.refused.wallet_taken],
  ] satisfies [WalletProofRefusalCode, string][])(
    "verifying: link-wallet's %s reads as the copy says",
    async (code, words) => {
      const t = await signed();
      t.links[0]?.reject(refusal(code, code === 'wallet_taken' ? 409 : 403));
      await settle();
      expect(t.toasts).toEqual([
        { title: walletProofCopy.notLinked, description: words, variant: 'destructive' },
      ]);
      expect(t.output()).toBeNull();
    },
  );

  it("requesting the nonce: another account's wallet is refused before anything is signed", async () => {
    const t = start();
    t.nonces[0]?.reject(refusal('wallet_taken', 409));
    await settle();
    expect(t.toasts).toEqual([
      {
        title: walletProofCopy.notLinked,
        description: walletProofCopy.refused.wallet_taken,
        variant: 'destructive',
      },
    ]);
    expect(t.signs).toHaveLength(0);
    expect(t.output()).toBeNull();
  });
});

describe("wallet-proof machine: a backend that fails keeps the spec's 'Database Sync Error'", () => {
  it('requesting the nonce: no answer, in the service’s words', async () => {
    const t = start();
    t.nonces[0]?.reject(new BackendError('Failed to send a request to the Edge Function', 'network_error'));
    await settle();
    expect(t.toasts).toEqual([
      {
        title: profileCopy.databaseSyncError,
        description: 'Failed to send a request to the Edge Function',
        variant: 'destructive',
      },
    ]);
    expect(t.output()).toBeNull();
  });

  it('verifying: a server error, or a failure that says nothing', async () => {
    const t = await signed();
    t.links[0]?.reject(new BackendError('Linking failed', 'link_failed', 500));
    await settle();
    expect(t.toasts.at(-1)).toEqual({
      title: profileCopy.databaseSyncError,
      description: 'Linking failed',
      variant: 'destructive',
    });
    const quiet = await signed();
    quiet.links[0]?.reject({});
    await settle();
    expect(quiet.toasts).toEqual([
      { title: profileCopy.databaseSyncError, description: authCopy.unexpectedError, variant: 'destructive' },
    ]);
  });
});
