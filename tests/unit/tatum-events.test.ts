import { parseEther, parseUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../../stack/gateway/tatum/dispatcher.ts';
import { addressEvents, type BlockActivity } from '../../stack/gateway/tatum/events.ts';
import { parseAddressEvent } from '../../supabase/functions/_shared/address-event.ts';
import { DOC_FEE, DOC_KEYS, docFungible } from '../support/tatum-documented.ts';

// Which address events the emulator owes for one block, in the body Tatum documents
// (tests/support/tatum-documented.ts), and how its deliveries back off.

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;
const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as const;
const CAROL = '0x90F79bf6EB2c4f870365E785982E1f101E93b906' as const;
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const;
const TX = `0x${'ab'.repeat(32)}` as const;
const TX2 = `0x${'cd'.repeat(32)}` as const;

const empty: BlockActivity = {
  number: 7n,
  timestamp: 1_710_936_000n,
  transactions: [],
  fees: [],
  tokenTransfers: [],
};
/** The documented keys plus the block's time, which a delivery carries (the SDK's Webhook.timestamp). */
const keysOf = (payload: object) => Object.keys(payload).sort();
const withTime = (keys: string[]) => [...keys, 'timestamp'].sort();
const watching =
  (...addresses: string[]) =>
  (address: string) =>
    addresses.map((a) => a.toLowerCase()).includes(address);

describe('address events of a block', () => {
  it('notifies both sides of a native transfer, the sender negative, plus the fee it paid', () => {
    const block: BlockActivity = {
      ...empty,
      transactions: [{ hash: TX, from: ALICE, to: BOB, value: parseEther('1.5') }],
      fees: [{ hash: TX, from: ALICE, fee: 21_000n * 2_000_000_000n }],
    };
    const events = addressEvents(block, watching(ALICE, BOB), 'ETH');
    expect(events.map((e) => e.payload)).toEqual([
      expect.objectContaining({ address: BOB.toLowerCase(), amount: '1.5', type: 'native', asset: 'ETH' }),
      expect.objectContaining({
        address: ALICE.toLowerCase(),
        amount: '-1.5',
        counterAddress: BOB.toLowerCase(),
      }),
      expect.objectContaining({ address: ALICE.toLowerCase(), amount: '-0.000042', type: 'fee' }),
    ]);
    // The documented bodies' fields, no more and no fewer: the fee's has no counter address.
    expect(events.map((e) => keysOf(e.payload))).toEqual([
      withTime(DOC_KEYS),
      withTime(DOC_KEYS),
      withTime(Object.keys(DOC_FEE)),
    ]);
    for (const event of events) {
      expect(event.payload).toMatchObject({
        txId: TX,
        blockNumber: 7,
        timestamp: 1_710_936_000_000,
        chain: 'ETH',
        subscriptionType: 'ADDRESS_EVENT',
      });
      expect(parseAddressEvent(JSON.parse(JSON.stringify(event.payload)))).toMatchObject({ kind: 'event' });
    }
  });

  it('reports token transfers as fungible, in the token’s units, with its contract as the asset', () => {
    const block: BlockActivity = {
      ...empty,
      tokenTransfers: [
        {
          hash: TX,
          logIndex: 0,
          token: TOKEN,
          decimals: 18,
          from: ALICE,
          to: BOB,
          value: parseUnits('12.25', 18),
        },
        { hash: TX2, logIndex: 3, token: TOKEN, decimals: 6, from: CAROL, to: BOB, value: 1n },
      ],
    };
    const events = addressEvents(block, watching(BOB), 'ETH');
    expect(
      events.map((e) => [e.payload.type, e.payload.amount, e.payload.asset, e.payload.counterAddress]),
    ).toEqual([
      ['fungible', '12.25', TOKEN.toLowerCase(), ALICE.toLowerCase()],
      ['fungible', '0.000001', TOKEN.toLowerCase(), CAROL.toLowerCase()],
    ]);
    // The address event's fields, with the contract where a fungible body's asset holds it; no log.
    const { contractAddress: _named, ...documented } = docFungible(TOKEN);
    expect(keysOf(events[0]?.payload ?? {})).toEqual(withTime(Object.keys(documented)));
  });

  it('owes nothing for unwatched addresses, zero values or contract creation', () => {
    const block: BlockActivity = {
      ...empty,
      transactions: [
        { hash: TX, from: ALICE, to: null, value: parseEther('1') },
        { hash: TX2, from: ALICE, to: BOB, value: 0n },
      ],
      tokenTransfers: [
        { hash: TX, logIndex: 0, token: TOKEN, decimals: 18, from: ALICE, to: CAROL, value: 5n },
      ],
    };
    expect(addressEvents(block, watching(BOB), 'ETH')).toEqual([]);
  });

  it('keys each event so a re-read block owes nothing twice, and a self-transfer owes both sides', () => {
    const transfer = { hash: TX, logIndex: 1, token: TOKEN, decimals: 18, from: BOB, to: BOB, value: 10n };
    const block: BlockActivity = { ...empty, tokenTransfers: [transfer] };
    const first = addressEvents(block, watching(BOB), 'ETH');
    expect(first.map((e) => e.payload.amount)).toEqual(['0.00000000000000001', '-0.00000000000000001']);
    expect(new Set(first.map((e) => e.key)).size).toBe(2);
    expect(addressEvents(block, watching(BOB), 'ETH').map((e) => e.key)).toEqual(first.map((e) => e.key));
  });
});

describe('webhook retry back-off', () => {
  it('doubles from the base delay and stops growing at the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n, 1000, 60_000))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000,
    ]);
  });
});
