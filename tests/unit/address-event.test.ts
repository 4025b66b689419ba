import { describe, expect, it } from 'vitest';
import { parseAddressEvent } from '../../supabase/functions/process-payments/address-event.ts';

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
    expect(parseAddressEvent(valid)).toEqual({ ok: true, event: valid });
    const { counterAddress: _omitted, ...fee } = { ...valid, type: 'fee' };
    expect(parseAddressEvent(fee)).toMatchObject({ ok: true, event: { counterAddress: null, type: 'fee' } });
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
