import { createSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import {
  checkProofMessage,
  MAX_PROOF_VALIDITY_MS,
  newNonce,
  parseLinkRequest,
  siteOrigins,
  type ProofRules,
} from '../../supabase/functions/link-wallet/proof.ts';

// The parts of link-wallet that need neither the stack nor a chain: the bodies it accepts, the
// nonces it issues, and every check of a signed message short of its signature and its nonce.

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const NOW = new Date('2026-11-24T12:00:00.000Z');
const RULES: ProofRules = { origins: ['https://portal.example'], chainId: 11155111, now: NOW };
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

type MessageFields = Partial<Parameters<typeof createSiweMessage>[0]>;

/** A message as the portal signs it, valid for five minutes from one minute ago. */
function message(fields: MessageFields = {}): string {
  return createSiweMessage({
    address: ADDRESS,
    domain: 'portal.example',
    uri: 'https://portal.example/',
    chainId: 11155111,
    nonce: 'abcDEF123456ghiJKL789012',
    issuedAt: minutes(-1),
    expirationTime: minutes(4),
    statement: 'Link this wallet to my DDEX Token Portal account.',
    version: '1',
    ...fields,
  });
}

describe('parseLinkRequest', () => {
  it('reads a nonce request and a link request', () => {
    expect(parseLinkRequest(JSON.stringify({ address: ADDRESS }))).toEqual({
      ok: true,
      request: { kind: 'nonce', address: ADDRESS },
    });
    expect(parseLinkRequest(JSON.stringify({ address: ADDRESS.toLowerCase() }))).toMatchObject({ ok: true });
    const signature = `0x${'ab'.repeat(65)}`;
    expect(parseLinkRequest(JSON.stringify({ message: 'm', signature }))).toEqual({
      ok: true,
      request: { kind: 'link', message: 'm', signature },
    });
  });

  it('says what is wrong with a body it refuses', () => {
    const refused = (body: string, reason: RegExp) =>
      expect(parseLinkRequest(body)).toEqual({ ok: false, message: expect.stringMatching(reason) });
    refused('{"address": ', /not valid JSON/);
    refused('', /not valid JSON/);
    refused(JSON.stringify([ADDRESS]), /JSON object/);
    refused('{}', /address is missing/);
    refused(JSON.stringify({ address: '0x1234' }), /address is not valid/);
    // Mixed case is a checksum, and this one is wrong.
    refused(JSON.stringify({ address: ADDRESS.replace('f39F', 'F39f') }), /address is not valid/);
    refused(JSON.stringify({ address: ADDRESS, message: 'm', signature: '0x12' }), /not both/);
    refused(JSON.stringify({ signature: '0x12' }), /message is missing/);
    refused(JSON.stringify({ message: 'm' }), /signature is missing/);
    refused(JSON.stringify({ message: 'm', signature: '0x123' }), /signature is not valid/);
    refused(JSON.stringify({ message: 'm', signature: 'abcd' }), /signature is not valid/);
  });
});

describe('siteOrigins', () => {
  it('reads one origin or a comma-separated list, without paths', () => {
    expect(siteOrigins('http://127.0.0.1:5173')).toEqual(['http://127.0.0.1:5173']);
    expect(siteOrigins('https://portal.example/app/, https://www.portal.example')).toEqual([
      'https://portal.example',
      'https://www.portal.example',
    ]);
  });

  it('refuses a value that names no http(s) origin', () => {
    expect(() => siteOrigins('')).toThrow(/no origin/);
    expect(() => siteOrigins('portal.example')).toThrow(/not a URL/);
    expect(() => siteOrigins('ftp://portal.example')).toThrow(/not an http/);
  });
});

describe('newNonce', () => {
  it('is 24 letters and digits, and different every time', () => {
    const nonces = new Set(Array.from({ length: 200 }, () => newNonce()));
    expect(nonces.size).toBe(200);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9]{24}$/);
  });
});

describe('checkProofMessage', () => {
  it('accepts the portal’s message and reports what it claims, the address checksummed', () => {
    const lower = message({ address: ADDRESS.toLowerCase() as `0x${string}` });
    expect(checkProofMessage(lower, RULES)).toEqual({
      ok: true,
      proof: {
        address: ADDRESS,
        domain: 'portal.example',
        nonce: 'abcDEF123456ghiJKL789012',
        issuedAt: minutes(-1),
        expirationTime: minutes(4),
      },
    });
  });

  it.each([
    ['no EIP-4361 message', 'Please sign this to link your wallet.', /not a Sign-In with Ethereum/],
    [
      'a message without an expiration time',
      message({ expirationTime: undefined }),
      /lacks its expiration time/,
    ],
    ['a message of another version', message().replace('Version: 1', 'Version: 2'), /version 1/],
    ['a short nonce', message({ nonce: 'abc12345' }).replace('abc12345', 'abc1'), /at least 8/],
    [
      'a time that is no RFC 3339 date-time',
      message().replace(/Issued At: .*/, 'Issued At: yesterday'),
      /not RFC 3339/,
    ],
  ])('refuses %s as malformed', (_label, text, reason) => {
    expect(checkProofMessage(text, RULES)).toEqual({
      ok: false,
      code: 'malformed',
      message: expect.stringMatching(reason),
    });
  });

  it.each([
    ['another site', { uri: 'https://evil.example/', domain: 'evil.example' }],
    ['a domain other than the URI’s host', { domain: 'evil.example' }],
    ['the portal’s host over another scheme', { uri: 'http://portal.example/' }],
    ['a scheme other than the URI’s', { scheme: 'http' }],
  ] as const)('refuses a message signed for %s (proof_domain)', (_label, fields) => {
    expect(checkProofMessage(message(fields), RULES)).toMatchObject({ ok: false, code: 'proof_domain' });
  });

  it('accepts any of the portal’s origins, with or without a path', () => {
    const rules = { ...RULES, origins: ['https://portal.example', 'https://www.portal.example'] };
    const fields = { uri: 'https://www.portal.example/profile', domain: 'www.portal.example' };
    expect(checkProofMessage(message(fields), rules)).toMatchObject({ ok: true });
  });

  it('refuses a message for another chain (proof_chain)', () => {
    expect(checkProofMessage(message({ chainId: 1 }), RULES)).toEqual({
      ok: false,
      code: 'proof_chain',
      message: 'The message was signed for chain 1; this portal runs on chain 11155111',
    });
  });

  it.each([
    ['that has expired', { issuedAt: minutes(-6), expirationTime: minutes(-1) }, /has expired/],
    ['that expires this very moment', { issuedAt: minutes(-6), expirationTime: NOW }, /has expired/],
    ['issued over a minute ahead', { issuedAt: minutes(2), expirationTime: minutes(5) }, /future/],
    ['not valid before a minute from now', { notBefore: minutes(2) }, /future/],
    [
      'valid for over 10 minutes',
      { issuedAt: minutes(-1), expirationTime: new Date(minutes(-1).getTime() + MAX_PROOF_VALIDITY_MS + 1) },
      /within 10 minutes/,
    ],
  ] as const)('refuses a message %s (proof_expired)', (_label, fields, reason) => {
    expect(checkProofMessage(message(fields), RULES)).toEqual({
      ok: false,
      code: 'proof_expired',
      message: expect.stringMatching(reason),
    });
  });

  it('allows a wallet’s clock a minute ahead, and a full 10 minutes of validity', () => {
    const ahead = { issuedAt: minutes(0.9), expirationTime: minutes(5) };
    expect(checkProofMessage(message(ahead), RULES)).toMatchObject({ ok: true });
    const longest = { issuedAt: minutes(-1), expirationTime: minutes(9) };
    expect(checkProofMessage(message(longest), RULES)).toMatchObject({ ok: true });
  });
});
