import { describe, expect, it } from 'vitest';
import { sendCopy, tokenCopy } from '../../../src/copy/index.ts';
import { sealKey } from '../../../src/machines/send/send-key.ts';
import {
  failureToast,
  maybeSent,
  maybeSentToast,
  replacedOnChain,
  replacedToast,
} from '../../../src/machines/send/send-toasts.ts';
import { TokenServiceError } from '../../../src/services/token/types.ts';

// The send machine's toasts for a failed step, on their own: the words, whether the key-cleared
// hint follows, what counts as a transfer that may have gone out, and the key never shown.

const HASH = `0x${'ab'.repeat(32)}` as const;
const failed = (description: string) => ({
  title: sendCopy.transferFailed,
  description,
  variant: 'destructive',
});

describe('send toasts: a failed step', () => {
  it('a failure without a hash clears the key; one with a hash went out and does not say so', () => {
    expect(failureToast(new TokenServiceError({ code: 'unknown' }), 'x')).toEqual(
      failed(`${tokenCopy.unknown} ${sendCopy.keyCleared}`),
    );
    expect(failureToast(new TokenServiceError({ code: 'reverted' }, { hash: HASH }), 'x')).toEqual(
      failed(tokenCopy.reverted),
    );
  });

  it('a hash that is not text is no hash', () => {
    expect(failureToast({ message: 'boom', hash: null }, 'x')).toEqual(failed(`boom ${sendCopy.keyCleared}`));
    expect(maybeSent({ message: 'boom', hash: null })).toBe(false);
  });

  it('a timeout is "Transfer Not Confirmed", with or without its hash', () => {
    const timeout = new TokenServiceError({ code: 'not-confirmed', seconds: 60 });
    expect(failureToast(timeout, 'x')).toEqual({
      title: sendCopy.transferNotConfirmed,
      description: `${tokenCopy.notConfirmed(60)} ${sendCopy.keyCleared}`,
      variant: 'destructive',
    });
  });

  it('anything thrown that says nothing still reads as a failure, never a crash', () => {
    for (const error of [null, undefined, 42, 'boom']) {
      expect(failureToast(error, 'x')).toEqual(failed(`${tokenCopy.unknown} ${sendCopy.keyCleared}`));
      expect(maybeSent(error)).toBe(false);
      expect(replacedOnChain(error)).toBe(false);
    }
  });
});

describe('send toasts: the key is never shown', () => {
  it('redacts the key however the failure writes it: with or without 0x, in any case, every time', () => {
    const key = `0x${'Ab12'.repeat(16)}`;
    const digits = key.slice(2);
    const message = `bad ${digits.toUpperCase()} and ${digits.toLowerCase()}, again 0x${digits}`;
    expect(failureToast(new Error(message), 'x', sealKey(key)).description).toBe(
      `bad [redacted] and [redacted], again 0x[redacted] ${sendCopy.keyCleared}`,
    );
  });

  it('redacts a key pasted with spaces around it', () => {
    const key = `  0x${'cd34'.repeat(16)}\n`;
    expect(failureToast(new Error(`bad ${'cd34'.repeat(16)}`), 'x', sealKey(key)).description).toBe(
      `bad [redacted] ${sendCopy.keyCleared}`,
    );
  });

  it('redacts a key of 8 characters, as typed, but leaves shorter text alone (it would match anywhere)', () => {
    expect(failureToast(new Error('key 12345678 refused'), 'x', sealKey('12345678')).description).toBe(
      `key [redacted] refused ${sendCopy.keyCleared}`,
    );
    expect(failureToast(new Error('key 1234567 refused'), 'x', sealKey('1234567')).description).toBe(
      `key 1234567 refused ${sendCopy.keyCleared}`,
    );
  });

  it('takes only a leading 0x off the key: text typed with 0x inside is redacted whole', () => {
    const typed = 'abcd0xef12345678';
    expect(failureToast(new Error(`cannot read ${typed}`), 'x', sealKey(typed)).description).toBe(
      `cannot read [redacted] ${sendCopy.keyCleared}`,
    );
  });
});

describe('send toasts: a transfer that may have gone out', () => {
  it('is one with a hash that did not revert', () => {
    expect(maybeSent(new TokenServiceError({ code: 'unknown' }, { hash: HASH }))).toBe(true);
    expect(maybeSent(new TokenServiceError({ code: 'reverted' }, { hash: HASH }))).toBe(false);
    expect(maybeSent(new TokenServiceError({ code: 'unknown' }))).toBe(false);
  });

  it('names its hash, or says no receipt came in time', () => {
    const lost = new TokenServiceError(
      { code: 'sent-but-unchecked', failure: { code: 'rpc-unavailable', status: null } },
      { hash: HASH },
    );
    expect(maybeSentToast(lost)).toEqual({
      title: sendCopy.mayHaveBeenSent,
      description: `${sendCopy.mayHaveBeenSentDescription(HASH)} ${sendCopy.checksInsteadOfResending}`,
      variant: 'destructive',
    });
  });

  it('replaced on chain only when the failure says so, with the hash it names (if any)', () => {
    expect(replacedOnChain({ replaced: true })).toBe(true);
    expect(replacedOnChain({ replaced: 'yes' })).toBe(false);
    expect(replacedToast({ replaced: true, hash: HASH })).toEqual(failed(sendCopy.replacedOnChain(HASH)));
    expect(replacedToast({ replaced: true })).toEqual(failed(sendCopy.replacedOnChain('')));
  });
});
