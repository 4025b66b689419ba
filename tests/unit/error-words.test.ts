import { describe, expect, it } from 'vitest';
import {
  authCopy,
  dataProviderCopy,
  sendCopy,
  tokenCopy,
  walletCopy,
  walletProofCopy,
} from '../../src/copy/index.ts';
import type {
  DataProviderOperation,
  TokenProblem,
  TokenProblemCode,
  WalletProofRefusalCode,
} from '../../src/domain/errors.ts';
import type { WalletErrorCode } from '../../src/domain/wallet.ts';
import {
  describeError,
  walletProofRefusal,
  walletSendWords,
  walletSignInWords,
} from '../../src/machines/error-words.ts';
import { messageOf } from '../../src/machines/shared.ts';
import { BackendError } from '../../src/services/supabase/types.ts';
import { clientUnavailable } from '../../src/services/supabase/errors.ts';
import { TatumServiceError } from '../../src/services/tatum/types.ts';
import { TokenServiceError } from '../../src/services/token/types.ts';

// The one place that words a service's failure: every code the services report
// reads exactly as the copy says, and what has no code of its own reads as the
// backend or the wallet said it.

/** One problem per code and the words it must read as; a new code does not compile until it is here. */
const TOKEN_WORDS: { [Code in TokenProblemCode]: [Extract<TokenProblem, { code: Code }>, string][] } = {
  'invalid-private-key-format': [[{ code: 'invalid-private-key-format' }, tokenCopy.invalidPrivateKeyFormat]],
  'invalid-private-key-value': [[{ code: 'invalid-private-key-value' }, tokenCopy.invalidPrivateKeyValue]],
  'key-mismatch': [[{ code: 'key-mismatch' }, sendCopy.keyMismatch]],
  'invalid-recipient': [[{ code: 'invalid-recipient' }, tokenCopy.invalidRecipient]],
  'zero-recipient': [[{ code: 'zero-recipient' }, tokenCopy.zeroRecipient]],
  'invalid-address': [[{ code: 'invalid-address' }, tokenCopy.invalidAddress]],
  'invalid-amount': [[{ code: 'invalid-amount' }, tokenCopy.invalidAmount]],
  'zero-amount': [[{ code: 'zero-amount' }, tokenCopy.zeroAmount]],
  'too-many-decimals': [
    [{ code: 'too-many-decimals', decimals: 18 }, tokenCopy.tooManyDecimals(18)],
    [{ code: 'too-many-decimals', decimals: 0 }, tokenCopy.tooManyDecimals(0)],
  ],
  'amount-too-large': [[{ code: 'amount-too-large' }, tokenCopy.amountTooLarge]],
  'insufficient-token-balance': [
    [
      { code: 'insufficient-token-balance', figures: { balance: '1', needed: '12.5' } },
      tokenCopy.insufficientTokenBalanceOf('1', '12.5'),
    ],
    [{ code: 'insufficient-token-balance', figures: null }, tokenCopy.insufficientTokenBalance],
  ],
  'insufficient-funds-for-gas': [[{ code: 'insufficient-funds-for-gas' }, tokenCopy.insufficientFundsForGas]],
  'wrong-chain': [
    [{ code: 'wrong-chain', actual: 11155111, expected: 31337 }, tokenCopy.wrongChain(11155111, 31337)],
  ],
  'chain-mismatch': [[{ code: 'chain-mismatch' }, tokenCopy.chainMismatch]],
  'invalid-receiver': [[{ code: 'invalid-receiver' }, tokenCopy.invalidReceiver]],
  refused: [
    [{ code: 'refused', revertReason: 'paused' }, `${tokenCopy.refused} paused`],
    [{ code: 'refused', revertReason: null }, tokenCopy.refused],
  ],
  reverted: [[{ code: 'reverted' }, tokenCopy.reverted]],
  'not-confirmed': [[{ code: 'not-confirmed', seconds: 120 }, tokenCopy.notConfirmed(120)]],
  'sent-but-unchecked': [
    [
      { code: 'sent-but-unchecked', failure: { code: 'rpc-unavailable', status: null } },
      `${tokenCopy.sentButUnchecked} ${tokenCopy.rpcUnavailable}`,
    ],
  ],
  'rpc-unavailable': [
    [{ code: 'rpc-unavailable', status: null }, tokenCopy.rpcUnavailable],
    [{ code: 'rpc-unavailable', status: 503 }, tokenCopy.rpcUnavailableStatus(503)],
  ],
  'no-token-contract': [[{ code: 'no-token-contract' }, tokenCopy.noTokenContract]],
  unknown: [[{ code: 'unknown' }, tokenCopy.unknown]],
};

const tokenCases: [string, TokenProblem, string][] = Object.values(TOKEN_WORDS)
  .flat()
  .map(([problem, words]) => [JSON.stringify(problem), problem, words]);

describe('token service failures', () => {
  it.each(tokenCases)('words %s as the copy does', (_, problem, words) => {
    expect(describeError(new TokenServiceError(problem))).toBe(words);
  });

  it('words a failure revived from the event journal (plain data, not the class) the same', () => {
    const problem: TokenProblem = { code: 'too-many-decimals', decimals: 6 };
    const revived = Object.assign(new Error('too-many-decimals {"decimals":6}'), {
      name: 'TokenServiceError',
      reason: 'invalid-amount',
      problem,
    });
    expect(describeError(revived)).toBe(tokenCopy.tooManyDecimals(6));
    expect(describeError(JSON.parse(JSON.stringify({ ...revived, name: revived.name })))).toBe(
      tokenCopy.tooManyDecimals(6),
    );
  });

  it('keeps the broad reason the send machine tells apart', () => {
    expect(new TokenServiceError({ code: 'key-mismatch' }).reason).toBe('wrong-account');
    expect(new TokenServiceError({ code: 'zero-recipient' }).reason).toBe('invalid-recipient');
    expect(new TokenServiceError({ code: 'refused', revertReason: null }).reason).toBe('reverted');
    expect(new TokenServiceError({ code: 'not-confirmed', seconds: 2 }).reason).toBe('confirmation-timeout');
    expect(
      new TokenServiceError({ code: 'sent-but-unchecked', failure: { code: 'insufficient-funds-for-gas' } })
        .reason,
    ).toBe('insufficient-funds-for-gas');
  });

  it('gives developers the code, not the words, as the message', () => {
    const error = new TokenServiceError({ code: 'wrong-chain', actual: 1, expected: 31337 });
    expect(error.message).toBe('wrong-chain {"actual":1,"expected":31337}');
    expect(new TokenServiceError({ code: 'reverted' }).message).toBe('reverted');
  });
});

describe('data provider failures', () => {
  const operations: [DataProviderOperation, string][] = [
    ['init', dataProviderCopy.initFailed],
    ['getNativeBalance', dataProviderCopy.balanceUnknownError],
    ['createAddressWebhook', dataProviderCopy.createWebhookFailed],
    ['listWebhooks', dataProviderCopy.listWebhooksFailed],
    ['deleteWebhook', dataProviderCopy.deleteWebhookFailed],
  ];

  it.each(operations)('words a failed %s as the copy does, whatever Tatum said', (operation, words) => {
    expect(describeError(new TatumServiceError(operation))).toBe(words);
    const detailed = new TatumServiceError(operation, { detail: 'HTTP 401', code: 'unauthorized' });
    expect(detailed.message).toContain('HTTP 401');
    expect(describeError(detailed)).toBe(words);
  });

  it('says how long to wait when the balance function limits this client', () => {
    const limited = new TatumServiceError('getNativeBalance', {
      detail: 'Too many requests',
      code: 'rate_limited',
      retryAfterSeconds: 42,
    });
    expect(describeError(limited)).toBe(dataProviderCopy.rateLimited(42));
    expect(describeError(limited)).toContain('42 seconds');
    // All clients together reached the project's ceiling: not this connection's doing.
    const busy = new TatumServiceError('getNativeBalance', { code: 'busy', retryAfterSeconds: 7 });
    expect(describeError(busy)).toBe(dataProviderCopy.busy(7));
  });

  it('falls back to the message for an operation it does not know', () => {
    const strange = { name: 'TatumServiceError', operation: 'toString', message: 'something', detail: null };
    expect(describeError(strange)).toBe('something');
  });
});

describe('backend failures', () => {
  it('words a missing backend as the copy does', () => {
    const error = clientUnavailable();
    expect(error.code).toBe('client_unavailable');
    expect(describeError(error)).toBe(authCopy.clientUnavailable.description);
  });

  it('passes on what the server said', () => {
    const denied = new BackendError('permission denied for table profiles', '42501', 403);
    expect(describeError(denied)).toBe('permission denied for table profiles');
    expect(describeError(new BackendError('Failed to fetch', 'network_error'))).toBe('Failed to fetch');
    expect(describeError(new BackendError(''))).toBeNull();
  });
});

describe('wallet failures', () => {
  it('words the answers the wallet service cannot use', () => {
    expect(describeError({ code: 'no-account', message: null })).toBe(walletCopy.noAccount);
    expect(describeError({ code: 'invalid-answer', message: null })).toBe(walletCopy.invalidAnswer);
  });

  it('tells a wallet ahead of a chain started afresh how to clear it', () => {
    const ahead = { code: 'nonce-ahead', message: null } as const;
    expect(walletSendWords(ahead)).toBe(walletCopy.nonceAhead);
  });

  it("passes on the wallet's own words for an unknown failure, and has none without them", () => {
    expect(describeError({ code: 'unknown', message: 'wallet locked' })).toBe('wallet locked');
    expect(describeError({ code: 'unknown', message: null })).toBeNull();
  });

  it('leaves the codes worded differently for a connect and a switch to the wallet machine', () => {
    for (const code of ['not-installed', 'rejected', 'pending', 'unrecognized-chain'] as const) {
      expect(describeError({ code, message: null }), code).toBeNull();
    }
  });
});

describe('wallet proofs (docs/product.md#wallet-sync)', () => {
  /** Every refusal link-wallet can answer; a new code does not compile until it is here. */
  const REFUSALS: Record<WalletProofRefusalCode, string> = {
    malformed: walletProofCopy.refused.malformed,
    proof_domain: walletProofCopy.refused.proof_domain,
    proof_chain: walletProofCopy.refused.proof_chain,
    proof_expired: walletProofCopy.refused.proof_expired,
    proof_signature: walletProofCopy.refused.proof_signature,
    proof_nonce: walletProofCopy.refused.proof_nonce,
    proof_replayed: walletProofCopy.refused.proof_replayed,
    wallet_taken: 'This wallet is already linked to another account.',
    too_many_nonces: walletProofCopy.refused.too_many_nonces,
  };

  it.each(Object.entries(REFUSALS))("words link-wallet's %s, not in the function's words", (code, words) => {
    const refused = new BackendError('the function’s message', code, 403);
    expect(walletProofRefusal(refused)).toBe(words);
    // As the journal revives it: plain data.
    expect(walletProofRefusal(JSON.parse(JSON.stringify({ ...refused, name: refused.name })))).toBe(words);
  });

  const SIGNING: Record<WalletErrorCode, string> = {
    rejected: walletProofCopy.declined,
    pending: walletCopy.switchPending,
    'not-installed': walletCopy.notInstalled,
    'unrecognized-chain': walletProofCopy.walletFailed,
    'no-account': walletCopy.noAccount,
    'invalid-answer': walletCopy.invalidAnswer,
    'wrong-chain': walletProofCopy.walletFailed,
    'nonce-ahead': walletProofCopy.walletFailed,
    unknown: walletProofCopy.walletFailed,
  };

  it.each(Object.entries(SIGNING))("words the wallet's %s while it signs", (code, words) => {
    expect(walletProofRefusal({ code, message: null })).toBe(words);
  });

  it("says that a declined signature left the wallet unlinked, and passes on a wallet's own words", () => {
    expect(walletProofCopy.declined).toMatch(/declined the signature request.*not linked/);
    expect(walletProofRefusal({ code: 'unknown', message: 'Ledger locked' })).toBe('Ledger locked');
  });

  it("leaves every other failure to the backend's words (no answer, a server error, anything else)", () => {
    expect(walletProofRefusal(new BackendError('Failed to fetch', 'network_error'))).toBeNull();
    expect(walletProofRefusal(new BackendError('Linking failed', 'link_failed', 500))).toBeNull();
    expect(walletProofRefusal(new BackendError('Missing authorization header', null, 401))).toBeNull();
    expect(walletProofRefusal(new Error('boom'))).toBeNull();
    expect(walletProofRefusal(undefined)).toBeNull();
  });
});

describe('Sign in with Ethereum', () => {
  it('says the signature was declined, as the wallet service reports it', () => {
    expect(walletSignInWords({ code: 'rejected', message: 'User rejected the request.' })).toBe(
      authCopy.walletSignInDeclined,
    );
  });

  it('says a wallet is missing, and passes on anything else', () => {
    expect(walletSignInWords({ code: 'not-installed', message: null })).toBe(walletCopy.notInstalled);
    expect(walletSignInWords({ code: 'no-account', message: null })).toBe(walletCopy.noAccount);
    expect(walletSignInWords(null)).toBe(authCopy.unexpectedError);
    expect(
      walletSignInWords(new BackendError('Signed Ethereum message is expired', 'invalid_grant', 400)),
    ).toBe('Signed Ethereum message is expired');
    expect(walletSignInWords(new Error(''))).toBe(authCopy.unexpectedError);
  });
});

describe('a code the wallet names, and words it said anyway', () => {
  // The wallet service sets a message only for 'unknown'; a refusal read with words of its own
  // keeps the portal's words for that code.
  const saidAnyway = { code: 'rejected', message: 'User denied transaction signature.' } as const;

  it('keeps the words of the code for a proof and for a send', () => {
    expect(walletProofRefusal(saidAnyway)).toBe(walletProofCopy.declined);
    expect(walletSendWords(saidAnyway)).toBe(sendCopy.walletRejected.description);
  });

  it("is the wallet's only: the backend's failure with such a code keeps the backend's words", () => {
    const backend = new BackendError('The signature was refused by the server.', 'rejected', 401);
    expect(walletSignInWords(backend)).toBe('The signature was refused by the server.');
  });
});

describe('a failure is recognised by its name and its shape together', () => {
  it("reads an error that only looks like a service's failure as its message", () => {
    // A problem without a code, or a problem or an operation under another name.
    expect(describeError({ name: 'TokenServiceError', problem: {}, message: 'odd' })).toBe('odd');
    expect(describeError({ name: 'Error', problem: { code: 'reverted' }, message: 'boom' })).toBe('boom');
    expect(describeError({ name: 'Error', operation: 'init', code: null, message: 'boom' })).toBe('boom');
  });
});

describe('anything else', () => {
  it("reads an error's message, and nothing from what says nothing", () => {
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeError(new Error(''))).toBeNull();
    expect(describeError(new Error('   '))).toBeNull();
    expect(describeError('a string')).toBeNull();
    expect(describeError(undefined)).toBeNull();
    expect(describeError({ code: 'constructor', message: null })).toBeNull();
  });

  it('is what messageOf falls back from', () => {
    expect(messageOf(new TokenServiceError({ code: 'reverted' }), 'fallback')).toBe(tokenCopy.reverted);
    expect(messageOf(new Error(''), 'fallback')).toBe('fallback');
    expect(messageOf(undefined)).toBeUndefined();
  });
});

describe('a user who holds as many webhooks as the function allows', () => {
  it('reads the limit, not a generic failure', () => {
    const full = new TatumServiceError('createAddressWebhook', {
      detail: 'You have 5 webhooks already',
      code: 'webhook_limit',
    });
    expect(describeError(full)).toBe(dataProviderCopy.webhookLimit);
  });
});
