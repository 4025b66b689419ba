import type { PrivateKeyAccount } from 'viem/accounts';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { fileUsers, serviceClient } from '../support/stack/users.ts';
import { NONCE_LIMIT } from '../../supabase/functions/link-wallet/handler.ts';
import { callLinkWallet, freshWallet, proofMessage, requestNonce } from '../support/stack/wallets.ts';

// The life of a link-wallet nonce, through the unmodified supabase-js as the portal calls it: a
// user holds one unspent nonce per address at a time, and a nonce is spent only by a proof whose
// signature was verified. The other refusals are in link-wallet.test.ts.

const stack = inject('gateway');
const chain = inject('chain');
const service = serviceClient(stack);

const users = fileUsers(stack, service);
afterEach(() => users.closeChannels());

/** The message for `nonce`, signed by `signer` (the wallet itself unless told otherwise). */
async function proof(wallet: PrivateKeyAccount, nonce: string, signer = wallet) {
  const message = proofMessage(chain, wallet.address, nonce);
  return { message, signature: await signer.signMessage({ message }) };
}

async function walletOf(id: string): Promise<string | null> {
  const { data, error } = await service.from('profiles').select('wallet_address').eq('id', id).maybeSingle();
  if (error) throw new Error(`reading profile ${id} failed: ${error.message}`);
  return data?.wallet_address ?? null;
}

const refusedWith = (status: number, code: string) => ({
  status,
  body: { error: expect.any(String), code, message: expect.any(String) },
});

describe('link-wallet nonces', () => {
  it('replaces the user’s unspent nonce for an address when they ask again: the first is refused (proof_nonce)', async () => {
    const alice = await users.signIn('lwn-again');
    const wallet = freshWallet();
    const first = await requestNonce(alice.client, wallet.address);
    // Asked again as the wallet may report it, in lower case: the same address.
    const second = await requestNonce(alice.client, wallet.address.toLowerCase());

    expect(await callLinkWallet(alice.client, await proof(wallet, first))).toEqual(
      refusedWith(403, 'proof_nonce'),
    );
    expect(await walletOf(alice.id)).toBeNull();
    // The one it was replaced by links.
    const linked = await callLinkWallet(alice.client, await proof(wallet, second));
    expect(linked.status).toBe(200);
    expect(await walletOf(alice.id)).toBe(wallet.address);
  });

  it('keeps the user’s nonce for one address when they ask for another', async () => {
    const alice = await users.signIn('lwn-other');
    const [wallet, other] = [freshWallet(), freshWallet()];
    const nonce = await requestNonce(alice.client, wallet.address);
    await requestNonce(alice.client, other.address);

    const linked = await callLinkWallet(alice.client, await proof(wallet, nonce));
    expect(linked.status).toBe(200);
    expect(await walletOf(alice.id)).toBe(wallet.address);
  });

  it('spends a nonce only once a signature was verified: a bad one is refused, then a good one links', async () => {
    const alice = await users.signIn('lwn-verified');
    const wallet = freshWallet();
    const nonce = await requestNonce(alice.client, wallet.address);

    // The same message, signed by a key that is not the wallet's.
    const forged = await proof(wallet, nonce, freshWallet());
    expect(await callLinkWallet(alice.client, forged)).toEqual(refusedWith(403, 'proof_signature'));
    expect(await walletOf(alice.id)).toBeNull();

    const linked = await callLinkWallet(alice.client, await proof(wallet, nonce));
    expect(linked.status).toBe(200);
    expect(linked.body.profile).toMatchObject({ id: alice.id, wallet_address: wallet.address });
  });

  it('gives a user nonces for at most 5 wallets in 10 minutes, then 429 too_many_nonces with when to retry', async () => {
    const alice = await users.signIn('lwn-limit');
    const wallets = Array.from({ length: NONCE_LIMIT }, () => freshWallet());
    for (const wallet of wallets) await requestNonce(alice.client, wallet.address);
    // Asking again for one of them replaces its nonce: no new wallet, nothing more counted.
    await requestNonce(alice.client, wallets[0]?.address ?? '');
    const refused = await callLinkWallet(alice.client, { address: freshWallet().address });
    expect(refused).toEqual({
      status: 429,
      body: {
        error: expect.any(String),
        code: 'too_many_nonces',
        message: expect.any(String),
        retryAfter: expect.any(Number),
      },
    });
    expect(refused.body.retryAfter).toBeGreaterThan(0);
    expect(refused.body.retryAfter).toBeLessThanOrEqual(10 * 60);
    // Another user is not held back by Alice's requests.
    const bob = await users.signIn('lwn-limit-other');
    await expect(requestNonce(bob.client, freshWallet().address)).resolves.toMatch(/^[A-Za-z0-9]+$/);
  });
});
