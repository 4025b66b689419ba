import { describe, expect, it } from 'vitest';
import { parseAddressEvent, skipOf } from '../../supabase/functions/_shared/address-event.ts';

const valid = {
  address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  amount: '-0.25',
  asset: 'ETH',
  blockNumber: 12,
  counterAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  txId: `0x${'ab'.repeat(32)}`,
  type: 'native',
  chain: 'ethereum-sepolia',
  subscriptionType: 'ADDRESS_EVENT',
};

describe('Tatum address event', () => {
  it('accepts the legacy payload, with or without a counter address', () => {
    // The legacy body names no log: the event is the transaction's transfer of its kind.
    expect(parseAddressEvent(valid)).toEqual({ ok: true, event: { ...valid, logIndex: null } });
    const { counterAddress: _omitted, ...fee } = { ...valid, type: 'fee' };
    expect(parseAddressEvent(fee)).toMatchObject({ ok: true, event: { counterAddress: null, type: 'fee' } });
  });

  it('reads the log a transfer is carried by, when the body names it', () => {
    const token = { ...valid, type: 'token', asset: `0x${'cd'.repeat(20)}` };
    expect(parseAddressEvent({ ...token, logIndex: 0 })).toMatchObject({ ok: true, event: { logIndex: 0 } });
    expect(parseAddressEvent({ ...token, logIndex: 17 })).toMatchObject({
      ok: true,
      event: { logIndex: 17 },
    });
    expect(parseAddressEvent({ ...token, logIndex: null })).toMatchObject({
      ok: true,
      event: { logIndex: null },
    });
    for (const logIndex of [-1, 1.5, '3', Number.MAX_SAFE_INTEGER + 1]) {
      expect(parseAddressEvent({ ...token, logIndex })).toEqual({
        ok: false,
        problems: ['logIndex must be a non-negative integer when present'],
      });
    }
  });

  it('lists every problem of a malformed body', () => {
    const result = parseAddressEvent({
      ...valid,
      address: 'nope',
      amount: '1e5',
      blockNumber: -1,
      type: 'nft',
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        'address must be a 0x-prefixed 20-byte hex address',
        'amount must be a decimal string such as "1.5" or "-0.25"',
        'blockNumber must be a non-negative integer',
        'type must be one of native, token, fee',
      ],
    });
  });

  it.each([null, [], 'text', 42])('refuses a body that is not an object: %j', (body) => {
    expect(parseAddressEvent(body)).toEqual({ ok: false, problems: ['body must be a JSON object'] });
  });
});

describe('which deliveries are answered without being recorded', () => {
  it('skips an event of another chain than the configured one, however it is spelled', () => {
    expect(skipOf(valid, 'ethereum-sepolia')).toBeNull();
    expect(skipOf({ ...valid, chain: 'Ethereum-Sepolia' }, 'ethereum-sepolia')).toBeNull();
    for (const chain of ['ethereum-mainnet', 'ETH', 'tron-mainnet']) {
      expect(skipOf({ ...valid, chain }, 'ethereum-sepolia')).toEqual({
        because: 'other-chain',
        message: `chain ${chain} is not the configured chain ethereum-sepolia`,
      });
    }
    // A body of any shape from another chain is skipped, not refused: Tatum would deliver it again.
    expect(skipOf({ chain: 'tron-mainnet', address: 'TTpQDBofev' }, 'ethereum-sepolia')).toMatchObject({
      because: 'other-chain',
    });
  });

  it('skips a mempool event, and records the block event', () => {
    expect(skipOf({ ...valid, mempool: true, blockNumber: null }, 'ethereum-sepolia')).toMatchObject({
      because: 'mempool',
    });
    expect(skipOf({ ...valid, mempool: false }, 'ethereum-sepolia')).toBeNull();
  });

  it('leaves a body that is no object to the parser', () => {
    expect(skipOf(null, 'ethereum-sepolia')).toBeNull();
    expect(skipOf([valid], 'ethereum-sepolia')).toBeNull();
  });
});
