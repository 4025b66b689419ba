import { describe, expect, it } from 'vitest';
import { parseAddressEvent, skipOf } from '../../supabase/functions/_shared/address-event.ts';
import {
  DOC_FEE,
  DOC_INTERNAL,
  DOC_MULTITOKEN,
  DOC_NATIVE_RECEIVED,
  DOC_NATIVE_SENT,
  DOC_NFT,
  DOC_REORG,
  SDK_DELIVERY_EXTRAS,
  docFungible,
} from '../support/tatum-documented.ts';

// Tatum's address-event bodies as its documentation prints them (tests/support/tatum-documented.ts
// names each page): what the parser records, sets aside, or refuses.

const valid = { ...DOC_NATIVE_RECEIVED, chain: 'ethereum-sepolia' };
const CONTRACT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

describe('Tatum address event', () => {
  it('reads the documented native bodies, and the fee body without a counter address', () => {
    expect(parseAddressEvent(DOC_NATIVE_RECEIVED)).toEqual({
      kind: 'event',
      event: {
        ...DOC_NATIVE_RECEIVED,
        contract: null,
        subscriptionId: null,
        timestamp: null,
        reorg: false,
      },
    });
    expect(parseAddressEvent(DOC_NATIVE_SENT)).toMatchObject({ kind: 'event', event: { type: 'native' } });
    expect(parseAddressEvent(DOC_FEE)).toMatchObject({
      kind: 'event',
      event: { type: 'fee', counterAddress: null, amount: '-0.000031500000168' },
    });
  });

  it('reads a fungible transfer with its token contract, from contractAddress or from asset', () => {
    expect(parseAddressEvent(docFungible(CONTRACT.toUpperCase().replace('0X', '0x')))).toMatchObject({
      kind: 'event',
      event: { type: 'fungible', contract: CONTRACT },
    });
    const { contractAddress: _left, ...assetOnly } = docFungible(CONTRACT);
    expect(parseAddressEvent(assetOnly)).toMatchObject({ kind: 'event', event: { contract: CONTRACT } });
    // Tatum's v3 name for the same thing, still seen in delivered bodies.
    expect(parseAddressEvent({ ...assetOnly, type: 'token' })).toMatchObject({
      kind: 'event',
      event: { type: 'fungible', contract: CONTRACT },
    });
    expect(parseAddressEvent({ ...assetOnly, asset: 'USDC' })).toEqual({
      kind: 'invalid',
      problems: ['a fungible event must name its token contract in contractAddress or asset'],
    });
  });

  it('reads an internal ETH transfer as ETH, and the delivery’s subscription, time and re-org flag', () => {
    expect(parseAddressEvent(DOC_INTERNAL)).toMatchObject({
      kind: 'event',
      event: { type: 'internal', asset: 'ETH', contract: null },
    });
    expect(parseAddressEvent({ ...DOC_REORG, ...SDK_DELIVERY_EXTRAS })).toMatchObject({
      kind: 'event',
      event: { ...SDK_DELIVERY_EXTRAS, reorg: true },
    });
  });

  it('sets NFT and multi-token transfers aside, and a type Tatum may add later, without refusing them', () => {
    expect(parseAddressEvent(DOC_NFT)).toEqual({
      kind: 'ignored',
      reason: `${DOC_NFT.txId}: an NFT (ERC-721) transfer: the history records ETH and fungible tokens only`,
    });
    expect(parseAddressEvent(DOC_MULTITOKEN)).toMatchObject({
      kind: 'ignored',
      reason: expect.stringContaining('ERC-1155'),
    });
    expect(parseAddressEvent({ ...valid, type: 'stablecoin', amount: 'lots' })).toEqual({
      kind: 'ignored',
      reason: `type "stablecoin" of ${valid.txId} is not one Tatum documents for an address event; not recorded`,
    });
  });

  it('lists every problem of a malformed body', () => {
    expect(parseAddressEvent({ ...valid, address: 'nope', txId: 7, type: 3 })).toEqual({
      kind: 'invalid',
      problems: [
        'type must be a string such as native, fungible or fee',
        'address must be a 0x-prefixed 20-byte hex address',
        'txId must be a 0x-prefixed 32-byte transaction hash',
      ],
    });
    expect(
      parseAddressEvent({
        ...valid,
        amount: '1e5',
        blockNumber: -1,
        timestamp: 'now',
        reorg: 'yes',
        subscriptionId: 4,
      }),
    ).toEqual({
      kind: 'invalid',
      problems: [
        'amount must be a decimal string such as "1.5" or "-0.25"',
        'blockNumber must be a non-negative integer',
        'subscriptionId must be a string when present',
        'timestamp must be milliseconds since the epoch when present',
        'reorg must be true or false when present',
      ],
    });
  });

  it.each([null, [], 'text', 42])('refuses a body that is not an object: %j', (body) => {
    expect(parseAddressEvent(body)).toEqual({ kind: 'invalid', problems: ['body must be a JSON object'] });
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
