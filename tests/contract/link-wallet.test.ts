import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  numberToHex,
  parseEther,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createLinkWalletHandler } from '../../supabase/functions/link-wallet/handler.ts';
import { fileUsers, serviceClient, type TestUser } from '../support/stack/users.ts';
import {
  callLinkWallet,
  freshWallet,
  linkWithProof,
  PORTAL_ORIGIN,
  proofMessage,
  requestNonce,
  setWalletAsServer,
} from '../support/stack/wallets.ts';
import { compileContract } from '../support/stack/solidity.ts';

// link-wallet end to end, through the unmodified supabase-js as the portal calls it: a wallet
// becomes a profile's only with a signed EIP-4361 message that carries a nonce the function gave
// that user for that address, and the signature is checked through the chain, so a contract
// wallet (EIP-1271) proves itself too. Every refusal leaves the profile as it was.
//
// The wallets are fresh random keys (signing needs no funds), so no other test file can hold
// their addresses: an address has one owner.

const stack = inject('gateway');
const chain = inject('chain');
const service = serviceClient(stack);
const FUNCTION_URL = `${stack.url}/functions/v1/link-wallet`;

const users = fileUsers(stack, service);
afterEach(() => users.closeChannels());

/** A signed-in user who saved a profile (as the portal does at sign-in), without a wallet. */
async function user(label: string): Promise<TestUser> {
  const signedIn = await users.signIn(label);
  const { error } = await signedIn.client.from('profiles').upsert({ id: signedIn.id, email: signedIn.email });
  if (error) throw new Error(`profile upsert failed: ${error.message}`);
  return signedIn;
}

async function profileOf(id: string) {
  const { data, error } = await service.from('profiles').select('*').eq('id', id).single();
  if (error) throw new Error(`reading profile ${id} failed: ${error.message}`);
  return data;
}

/** The profile rows holding `address`, in any letter case. */
async function holdersOf(address: string) {
  const { data, error } = await service.from('profiles').select('id').ilike('wallet_address', address);
  if (error) throw new Error(`reading holders failed: ${error.message}`);
  return data.map(({ id }) => id);
}

const refusedWith = (status: number, code: string) => ({
  status,
  body: { error: expect.any(String), code, message: expect.any(String) },
});

describe('link-wallet links a proven wallet', () => {
  it('issues a nonce for the address: random letters and digits, valid for 10 minutes', async () => {
    const alice = await user('lw-nonce');
    const wallet = freshWallet();
    const before = Date.now();
    const answer = await callLinkWallet(alice.client, { address: wallet.address });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      nonce: expect.stringMatching(/^[A-Za-z0-9]{16,}$/),
      expiresAt: expect.any(String),
    });
    const expiresAt = Date.parse(answer.body.expiresAt ?? '');
    expect(expiresAt).toBeGreaterThanOrEqual(before + 10 * 60_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 10 * 60_000 + 1000);
    expect(await requestNonce(alice.client, wallet.address)).not.toBe(answer.body.nonce);
  });

  it('links a wallet with a good proof: the checksummed address, verified now, in the reply and the row', async () => {
    const alice = await user('lw-good');
    const wallet = freshWallet();
    const before = Date.now();
    // The portal may ask with the address as the wallet reports it, in lower case.
    const nonce = await requestNonce(alice.client, wallet.address.toLowerCase());

    const answer = await linkWithProof(chain, alice.client, wallet, { nonce });

    expect(answer.status).toBe(200);
    const profile = answer.body.profile;
    expect(profile).toMatchObject({ id: alice.id, email: alice.email, wallet_address: wallet.address });
    expect(Date.parse(profile?.wallet_verified_at ?? '')).toBeGreaterThanOrEqual(before - 1000);
    // The row the user reads is the one the reply reported.
    const own = await alice.client.from('profiles').select('*').eq('id', alice.id).single();
    expect(own.data).toEqual(profile);
  });

  it('replaces the wallet a user linked before with the newly proven one', async () => {
    const alice = await user('lw-replace');
    const [first, second] = [freshWallet(), freshWallet()];
    expect((await linkWithProof(chain, alice.client, first)).status).toBe(200);
    const answer = await linkWithProof(chain, alice.client, second);
    expect(answer.status).toBe(200);
    expect(answer.body.profile?.wallet_address).toBe(second.address);
    expect(await holdersOf(first.address)).toEqual([]);
  });

  it('links for a user who has no profile row yet', async () => {
    const newcomer = await users.signIn('lw-newcomer');
    const wallet = freshWallet();
    const answer = await linkWithProof(chain, newcomer.client, wallet);
    expect(answer.status).toBe(200);
    expect(answer.body.profile).toMatchObject({ id: newcomer.id, wallet_address: wallet.address });
  });
});

describe('link-wallet refuses what does not prove the wallet, and links nothing', () => {
  /** Runs a refused link for a fresh user and wallet, and checks the profile did not change. */
  async function refused(
    label: string,
    attempt: (who: TestUser, wallet: PrivateKeyAccount) => Promise<unknown>,
    status: number,
    code: string,
  ) {
    const who = await user(label);
    const wallet = freshWallet();
    const before = await profileOf(who.id);
    expect(await attempt(who, wallet)).toEqual(refusedWith(status, code));
    expect(await profileOf(who.id)).toEqual(before);
    expect(await holdersOf(wallet.address)).toEqual([]);
  }

  it('refuses a link without a signature (malformed)', async () => {
    await refused(
      'lw-unsigned',
      (who, wallet) => linkWithProof(chain, who.client, wallet, { signature: null }),
      400,
      'malformed',
    );
  });

  it('refuses a message that is no EIP-4361 message, or lacks its expiration time (malformed)', async () => {
    await refused(
      'lw-not-siwe',
      async (who, wallet) => {
        const message = 'Please link my wallet.';
        return callLinkWallet(who.client, { message, signature: await wallet.signMessage({ message }) });
      },
      400,
      'malformed',
    );
    await refused(
      'lw-no-expiry',
      async (who, wallet) => {
        const nonce = await requestNonce(who.client, wallet.address);
        const message = proofMessage(chain, wallet.address, nonce).replace(/\nExpiration Time: .*/, '');
        return callLinkWallet(who.client, { message, signature: await wallet.signMessage({ message }) });
      },
      400,
      'malformed',
    );
  });

  it('refuses a signature of another address (proof_signature)', async () => {
    const mallory = freshWallet();
    await refused(
      'lw-other-signer',
      (who, wallet) => linkWithProof(chain, who.client, wallet, { signer: mallory }),
      403,
      'proof_signature',
    );
    expect(await holdersOf(mallory.address)).toEqual([]);
  });

  it('refuses a message signed for another site (proof_domain)', async () => {
    await refused(
      'lw-domain',
      (who, wallet) => linkWithProof(chain, who.client, wallet, { domain: 'evil.example' }),
      403,
      'proof_domain',
    );
    await refused(
      'lw-uri',
      (who, wallet) => linkWithProof(chain, who.client, wallet, { uri: 'https://evil.example/' }),
      403,
      'proof_domain',
    );
  });

  it('refuses a message signed for another chain (proof_chain)', async () => {
    await refused(
      'lw-chain',
      (who, wallet) => linkWithProof(chain, who.client, wallet, { chainId: 1 }),
      403,
      'proof_chain',
    );
  });

  it('refuses an expired message, and one valid for more than 10 minutes (proof_expired)', async () => {
    const now = Date.now();
    await refused(
      'lw-expired',
      (who, wallet) =>
        linkWithProof(chain, who.client, wallet, {
          issuedAt: new Date(now - 6 * 60_000),
          expirationTime: new Date(now - 60_000),
        }),
      403,
      'proof_expired',
    );
    await refused(
      'lw-too-long',
      (who, wallet) =>
        linkWithProof(chain, who.client, wallet, {
          issuedAt: new Date(now),
          expirationTime: new Date(now + 60 * 60_000),
        }),
      403,
      'proof_expired',
    );
  });

  it('refuses a nonce that has expired (proof_expired)', async () => {
    await refused(
      'lw-nonce-expired',
      async (who, wallet) => {
        const nonce = await requestNonce(who.client, wallet.address);
        // Ten minutes on, as the server's clock would have it.
        const aged = await service
          .from('wallet_link_nonces')
          .update({ expires_at: new Date(Date.now() - 1000).toISOString() })
          .eq('nonce', nonce);
        expect(aged.error).toBeNull();
        return linkWithProof(chain, who.client, wallet, { nonce });
      },
      403,
      'proof_expired',
    );
  });

  it('refuses a nonce it never issued, one issued to another user, and one issued for another address (proof_nonce)', async () => {
    await refused(
      'lw-nonce-unknown',
      (who, wallet) => linkWithProof(chain, who.client, wallet, { nonce: 'NeverIssued0123456789abc' }),
      403,
      'proof_nonce',
    );
    const bob = await user('lw-nonce-owner');
    await refused(
      'lw-nonce-stolen',
      async (who, wallet) =>
        linkWithProof(chain, who.client, wallet, { nonce: await requestNonce(bob.client, wallet.address) }),
      403,
      'proof_nonce',
    );
    await refused(
      'lw-nonce-other-address',
      async (who, wallet) =>
        linkWithProof(chain, who.client, wallet, {
          nonce: await requestNonce(who.client, freshWallet().address),
        }),
      403,
      'proof_nonce',
    );
  });

  it('refuses a replayed proof (proof_replayed): a captured proof cannot link again after an unlink', async () => {
    const alice = await user('lw-replay');
    const wallet = freshWallet();
    const nonce = await requestNonce(alice.client, wallet.address);
    const message = proofMessage(chain, wallet.address, nonce);
    const signature = await wallet.signMessage({ message });
    expect((await callLinkWallet(alice.client, { message, signature })).status).toBe(200);
    const unlinked = await alice.client.from('profiles').upsert({ id: alice.id, wallet_address: null });
    expect(unlinked.error).toBeNull();

    expect(await callLinkWallet(alice.client, { message, signature })).toEqual(
      refusedWith(403, 'proof_replayed'),
    );
    expect(await profileOf(alice.id)).toMatchObject({ wallet_address: null, wallet_verified_at: null });
  });

  it('links once when one proof is sent twice at the same time', async () => {
    const alice = await user('lw-race');
    const wallet = freshWallet();
    const nonce = await requestNonce(alice.client, wallet.address);
    const message = proofMessage(chain, wallet.address, nonce);
    const signature = await wallet.signMessage({ message });
    const answers = await Promise.all([
      callLinkWallet(alice.client, { message, signature }),
      callLinkWallet(alice.client, { message, signature }),
    ]);
    expect(answers.map(({ status }) => status).sort()).toEqual([200, 403]);
    expect(answers.find(({ status }) => status === 403)).toEqual(refusedWith(403, 'proof_replayed'));
  });
});

describe('one owner per wallet', () => {
  it('refuses an address another user has proven only when linking (wallet_taken): a nonce tells nothing', async () => {
    const [alice, bob] = await Promise.all([user('lw-first'), user('lw-second')]);
    const wallet = freshWallet();
    // Bob asks first, then Alice links; Bob's later proof must not take the wallet from her.
    const bobsNonce = await requestNonce(bob.client, wallet.address);
    expect((await linkWithProof(chain, alice.client, wallet)).status).toBe(200);

    // Asking for a nonce answers the same whoever holds the address: it says nothing of other
    // accounts. (It replaces Bob's first.) Only his proof of the wallet hears that it is taken.
    const again = await requestNonce(bob.client, wallet.address.toLowerCase());
    expect(again).not.toBe(bobsNonce);
    expect(await linkWithProof(chain, bob.client, wallet, { nonce: again })).toEqual(
      refusedWith(409, 'wallet_taken'),
    );
    expect(await holdersOf(wallet.address)).toEqual([alice.id]);
    expect((await profileOf(bob.id)).wallet_address).toBeNull();
  });

  it('lets two users race for one wallet: one links it, the other is refused', async () => {
    const [alice, bob] = await Promise.all([user('lw-race-a'), user('lw-race-b')]);
    const wallet = freshWallet();
    const proofs = await Promise.all(
      [alice, bob].map(async (who) => {
        const message = proofMessage(chain, wallet.address, await requestNonce(who.client, wallet.address));
        return { who, message, signature: await wallet.signMessage({ message }) };
      }),
    );
    const answers = await Promise.all(
      proofs.map(({ who, message, signature }) => callLinkWallet(who.client, { message, signature })),
    );
    expect(answers.map(({ status }) => status).sort()).toEqual([200, 409]);
    const winner = answers[0]?.status === 200 ? alice : bob;
    expect(await holdersOf(wallet.address)).toEqual([winner.id]);
  });

  it('refuses a second profile holding an address in any letter case, even one the server writes', async () => {
    const [alice, bob] = await Promise.all([user('lw-unique-a'), user('lw-unique-b')]);
    const wallet = freshWallet();
    await setWalletAsServer(service, alice.id, wallet.address.toLowerCase(), true);
    await expect(setWalletAsServer(service, bob.id, wallet.address, false)).rejects.toThrow(/23505/);
  });
});

describe('the owner’s own profile saves', () => {
  it('let the owner unlink the wallet with an ordinary upsert, which clears its proof', async () => {
    const alice = await user('lw-clear');
    const wallet = freshWallet();
    expect((await linkWithProof(chain, alice.client, wallet)).status).toBe(200);

    const { data, error } = await alice.client
      .from('profiles')
      .upsert({ id: alice.id, wallet_address: null }, { onConflict: 'id' })
      .select()
      .single();
    expect(error).toBeNull();
    expect(data).toMatchObject({ wallet_address: null, wallet_verified_at: null });
    // The wallet is free again: another proof links it anew.
    expect((await linkWithProof(chain, alice.client, wallet)).status).toBe(200);
  });

  it('never let the owner set the wallet or its proof (42501), linked or not', async () => {
    const alice = await user('lw-forge');
    const forged = freshWallet().address;
    const attempts = [
      { wallet_address: forged },
      { wallet_verified_at: '2026-01-01T00:00:00Z' },
      { wallet_address: forged, wallet_verified_at: '2026-01-01T00:00:00Z' },
    ];
    const tryAll = async () => {
      const before = await profileOf(alice.id);
      for (const attempt of attempts) {
        const upsert = await alice.client
          .from('profiles')
          .upsert({ id: alice.id, ...attempt }, { onConflict: 'id' });
        expect(upsert.error?.code).toBe('42501');
        expect(upsert.error?.message).toMatch(
          /^profiles\.wallet_(address|verified_at) is managed by the server/,
        );
        const update = await alice.client.from('profiles').update(attempt).eq('id', alice.id);
        expect(update.error?.code).toBe('42501');
      }
      expect(await profileOf(alice.id)).toEqual(before);
    };
    await tryAll();
    expect((await linkWithProof(chain, alice.client, freshWallet())).status).toBe(200);
    await tryAll();
    // Nor can a new user start with one.
    const newcomer = await users.signIn('lw-forge-new');
    const born = await newcomer.client.from('profiles').insert({ id: newcomer.id, wallet_address: forged });
    expect(born.error?.code).toBe('42501');
  });
});

describe('link-wallet’s door', () => {
  it('is behind JWT verification, and refuses a caller who is no signed-in user (401)', async () => {
    const wallet = freshWallet();
    const body = JSON.stringify({ address: wallet.address });
    const viaGateway = await fetch(FUNCTION_URL, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body,
    });
    expect(viaGateway.status).toBe(401);
    expect(await viaGateway.json()).toEqual({ code: 401, message: 'Missing authorization header' });
    // The function itself, reached without the gateway's check: a token that is no user's.
    const direct = await fetch(stack.functions.urls['link-wallet'] ?? '', {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.anonKey}`, 'content-type': 'application/json' },
      body,
    });
    expect(direct.status).toBe(401);
    expect(await direct.json()).toEqual({
      error: 'Unauthorized',
      code: 'unauthorized',
      message: expect.any(String),
    });
  });

  it('refuses a body that is not JSON (400), too large (413) or not a POST (405)', async () => {
    const alice = await user('lw-door');
    const send = (body: string | undefined, method = 'POST') =>
      fetch(FUNCTION_URL, {
        method,
        headers: {
          apikey: stack.anonKey,
          authorization: `Bearer ${alice.accessToken}`,
          'content-type': 'application/json',
        },
        body,
      });
    const read = async (response: Response) => ({ status: response.status, body: await response.json() });
    expect(await read(await send('{"address": '))).toEqual(refusedWith(400, 'malformed'));
    expect(
      await read(await send(JSON.stringify({ message: 'x'.repeat(20_000), signature: '0x00' }))),
    ).toEqual(refusedWith(413, 'too_large'));
    const get = await send(undefined, 'GET');
    expect(get.headers.get('allow')).toBe('POST');
    expect(await read(get)).toEqual(refusedWith(405, 'method_not_allowed'));
    expect((await profileOf(alice.id)).wallet_address).toBeNull();
  });
});

// A contract wallet: whatever its owner's key signs is its signature (EIP-1271).
const OWNED_WALLET_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract OwnedWallet {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}
`;

describe('a smart-contract wallet (EIP-1271)', () => {
  const owner = freshWallet();
  const transport = http(chain.rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ transport });
  let compiled: { abi: Abi; bytecode: Hex };

  beforeAll(() => {
    compiled = compileContract('OwnedWallet', OWNED_WALLET_SOURCE);
  });

  /** Deploys a wallet `owner` controls, from a deployer of its own funded for this alone. */
  async function deployOwnedWallet(): Promise<Address> {
    const deployer = freshWallet();
    await publicClient.request({
      method: 'hardhat_setBalance' as never,
      params: [deployer.address, numberToHex(parseEther('1'))] as never,
    });
    const hash = await createWalletClient({ account: deployer, transport }).deployContract({
      ...compiled,
      args: [owner.address],
      chain: null,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error('the wallet contract was not deployed');
    return getAddress(receipt.contractAddress);
  }

  it('links the contract’s address with a proof its owner signed', async () => {
    const walletAddress = await deployOwnedWallet();
    const alice = await user('lw-1271');
    const answer = await linkWithProof(chain, alice.client, owner, { address: walletAddress });
    expect(answer.status).toBe(200);
    expect(answer.body.profile).toMatchObject({ id: alice.id, wallet_address: walletAddress });
  });

  it('refuses a proof for the contract signed by someone else (proof_signature)', async () => {
    const walletAddress = await deployOwnedWallet();
    const bob = await user('lw-1271-stranger');
    const answer = await linkWithProof(chain, bob.client, freshWallet(), { address: walletAddress });
    expect(answer).toEqual(refusedWith(403, 'proof_signature'));
    expect((await profileOf(bob.id)).wallet_address).toBeNull();
    expect(await holdersOf(walletAddress)).toEqual([]);
  });

  /** Calls `handler` itself with `who`'s session: a proof for `address` on `chainId`, signed by `signer`. */
  async function linkThrough(
    handler: (request: Request) => Promise<Response>,
    who: TestUser,
    address: Address,
    signer: PrivateKeyAccount,
    chainId: number,
  ) {
    const nonce = await requestNonce(who.client, address);
    const message = proofMessage(chain, signer.address, nonce, { address, chainId });
    const response = await handler(
      new Request(FUNCTION_URL, {
        method: 'POST',
        headers: { authorization: `Bearer ${who.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message, signature: await signer.signMessage({ message }) }),
      }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('fails every proof for a contract wallet when the node serves another chain than CHAIN_ID', async () => {
    // The function set up for another chain than the one its RPC_URL serves.
    const otherChain = chain.chainId + 1;
    const misconfigured = createLinkWalletHandler({
      supabase: service,
      rpcUrl: chain.rpcUrl,
      chainId: otherChain,
      siteUrl: PORTAL_ORIGIN,
    });
    const alice = await user('lw-1271-other-chain');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const walletAddress of [await deployOwnedWallet(), await deployOwnedWallet()]) {
        const answer = await linkThrough(misconfigured, alice, walletAddress, owner, otherChain);
        expect(answer).toMatchObject({ status: 500, body: { code: 'link_failed' } });
        expect(await holdersOf(walletAddress)).toEqual([]);
      }
      expect(logged.mock.calls.flat().map(String).join('\n')).toContain(
        `serves chain ${chain.chainId}, not CHAIN_ID ${otherChain}`,
      );
    } finally {
      logged.mockRestore();
    }
    // A key's proof needs no node, so the same function still links one.
    const key = freshWallet();
    const linked = await linkThrough(misconfigured, alice, key.address, key, otherChain);
    expect(linked.status).toBe(200);
    expect((await profileOf(alice.id)).wallet_address).toBe(key.address);
  });

  it('asks the node which chain it serves once, while it serves CHAIN_ID', async () => {
    // The node behind a relay that counts what it is asked.
    const asked: string[] = [];
    const relay = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        const calls = [JSON.parse(body) as { method: string }].flat();
        asked.push(...calls.map(({ method }) => method));
        fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
          .then(async (answer) => {
            response.writeHead(answer.status, { 'content-type': 'application/json' });
            response.end(await answer.text());
          })
          .catch(() => response.destroy());
      });
    });
    await new Promise<void>((listening) => relay.listen(0, '127.0.0.1', listening));
    try {
      const relayed = createLinkWalletHandler({
        supabase: service,
        rpcUrl: `http://127.0.0.1:${(relay.address() as AddressInfo).port}/`,
        chainId: chain.chainId,
        siteUrl: PORTAL_ORIGIN,
      });
      for (const label of ['lw-1271-asked-a', 'lw-1271-asked-b']) {
        const walletAddress = await deployOwnedWallet();
        const who = await user(label);
        const answer = await linkThrough(relayed, who, walletAddress, owner, chain.chainId);
        expect(answer.status).toBe(200);
        expect(await holdersOf(walletAddress)).toEqual([who.id]);
      }
      expect(asked.filter((method) => method === 'eth_chainId')).toEqual(['eth_chainId']);
    } finally {
      relay.closeAllConnections();
      await new Promise<void>((closed) => relay.close(() => closed()));
    }
  });
});

describe('a node that cannot be reached', () => {
  // The handler as the gateway runs it in Node, on this stack's database, with a node that is down.
  const offline = createLinkWalletHandler({
    supabase: service,
    rpcUrl: 'http://127.0.0.1:9/',
    chainId: chain.chainId,
    siteUrl: PORTAL_ORIGIN,
  });

  async function linkOffline(who: TestUser, wallet: PrivateKeyAccount, signer: PrivateKeyAccount) {
    const nonce = await requestNonce(who.client, wallet.address);
    const message = proofMessage(chain, wallet.address, nonce);
    const signature = await signer.signMessage({ message });
    const { data } = await who.client.auth.getSession();
    const response = await offline(
      new Request(FUNCTION_URL, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${data.session?.access_token ?? ''}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ message, signature }),
      }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, signature };
  }

  it('still links a key’s proof, which needs no node', async () => {
    const alice = await user('lw-offline-key');
    const wallet = freshWallet();
    const answer = await linkOffline(alice, wallet, wallet);
    expect(answer.status).toBe(200);
    expect((await profileOf(alice.id)).wallet_address).toBe(wallet.address);
  });

  it('answers any other proof "chain unavailable" (502), not a refusal, and logs no signature', async () => {
    const bob = await user('lw-offline-other');
    const wallet = freshWallet();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const answer = await linkOffline(bob, wallet, freshWallet());
      expect(answer).toMatchObject({ status: 502, body: { code: 'chain_unavailable' } });
      const log = logged.mock.calls.flat().map(String).join('\n');
      expect(log).toMatch(/link-wallet/);
      expect(log.toLowerCase()).not.toContain(answer.signature.slice(2).toLowerCase());
      expect(log).not.toContain('127.0.0.1:9');
    } finally {
      logged.mockRestore();
    }
    expect((await profileOf(bob.id)).wallet_address).toBeNull();
  });
});
