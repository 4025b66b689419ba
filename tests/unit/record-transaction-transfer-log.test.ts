import {
  encodeAbiParameters,
  encodeEventTopics,
  erc20Abi,
  erc721Abi,
  formatUnits as viemFormatUnits,
  parseUnits,
  type Hex,
} from 'viem';
import { describe, expect, it } from 'vitest';
import {
  decodeDecimals,
  decodeTransfer,
  formatUnits,
  parseReceipt,
  TRANSFER_TOPIC,
  type RawLog,
} from '../../supabase/functions/_shared/transfer-log.ts';

// The hand-written decoder and formatter, checked against logs and amounts
// that viem encodes and formats independently.

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const SENDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

function transferLog(from: Hex, to: Hex, value: bigint, address: string = TOKEN): RawLog {
  return {
    address,
    topics: encodeEventTopics({ abi: erc20Abi, eventName: 'Transfer', args: { from, to } }) as string[],
    data: encodeAbiParameters([{ type: 'uint256' }], [value]),
    removed: false,
  };
}

const receiptOf = (logs: RawLog[], status = '0x1') => ({
  status,
  logs,
  transactionHash: `0x${'ab'.repeat(32)}`,
  blockNumber: '0x2',
});

describe('formatUnits', () => {
  it('formats exactly, trimming trailing zeros', () => {
    expect(formatUnits(parseUnits('12.5', 18), 18)).toBe('12.5');
    expect(formatUnits(parseUnits('1', 18), 18)).toBe('1');
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001');
    expect(formatUnits(0n, 18)).toBe('0');
    expect(formatUnits(10n ** 18n * 1_000_000n + 1n, 18)).toBe('1000000.000000000000000001');
    expect(formatUnits(1234n, 0)).toBe('1234');
    expect(formatUnits(1234n, 2)).toBe('12.34');
    expect(formatUnits(-5n, 1)).toBe('-0.5');
  });

  it('agrees with viem beyond the precision of a float', () => {
    const values = [
      2n ** 256n - 1n,
      123456789012345678901234567890n,
      10n ** 17n,
      999999999999999999n,
      100000000000000000000n,
      7n,
    ];
    for (const value of values) {
      for (const decimals of [0, 6, 18]) {
        expect(formatUnits(value, decimals)).toBe(viemFormatUnits(value, decimals));
      }
    }
  });
});

describe('decodeTransfer', () => {
  it('reads token, from, to and value of an ERC-20 Transfer in lower case', () => {
    const value = parseUnits('42.000001', 18);
    expect(decodeTransfer(transferLog(SENDER, RECIPIENT, value))).toEqual({
      token: TOKEN.toLowerCase(),
      from: SENDER.toLowerCase(),
      to: RECIPIENT.toLowerCase(),
      value,
    });
    expect(transferLog(SENDER, RECIPIENT, value).topics[0]).toBe(TRANSFER_TOPIC);
  });

  it('accepts topics and data in upper-case hex', () => {
    const log = transferLog(SENDER, RECIPIENT, 255n);
    const shouting = { ...log, topics: log.topics.map((t) => t.toUpperCase().replace('0X', '0x')) };
    expect(decodeTransfer({ ...shouting, data: log.data.toUpperCase().replace('0X', '0x') })).toMatchObject({
      from: SENDER.toLowerCase(),
      value: 255n,
    });
  });

  it('is not fooled by an ERC-721 Transfer, another event, dirty padding, a removed log or odd data', () => {
    const nft: RawLog = {
      address: TOKEN,
      topics: encodeEventTopics({
        abi: erc721Abi,
        eventName: 'Transfer',
        args: { from: SENDER, to: RECIPIENT, tokenId: 1n },
      }) as string[],
      data: '0x',
      removed: false,
    };
    expect(nft.topics[0]).toBe(TRANSFER_TOPIC);
    expect(decodeTransfer(nft)).toBeNull();

    const approval: RawLog = {
      ...transferLog(SENDER, RECIPIENT, 1n),
      topics: encodeEventTopics({
        abi: erc20Abi,
        eventName: 'Approval',
        args: { owner: SENDER, spender: RECIPIENT },
      }) as string[],
    };
    expect(decodeTransfer(approval)).toBeNull();

    const good = transferLog(SENDER, RECIPIENT, 1n);
    const [topic0, fromTopic, toTopic] = good.topics as [string, string, string];
    const dirty = `0x01${fromTopic.slice(4)}`;
    expect(decodeTransfer({ ...good, topics: [topic0, dirty, toTopic] })).toBeNull();
    expect(decodeTransfer({ ...good, removed: true })).toBeNull();
    expect(decodeTransfer({ ...good, data: '0x' })).toBeNull();
    expect(decodeTransfer({ ...good, data: `${good.data}00` })).toBeNull();
    expect(decodeTransfer(good)).not.toBeNull();
  });
});

describe('parseReceipt', () => {
  it('keeps each log with its index, and decodes the token’s transfers from them', () => {
    const other = '0x' + '11'.repeat(20);
    const receipt = parseReceipt(
      receiptOf([transferLog(SENDER, RECIPIENT, 5n, other), transferLog(RECIPIENT, SENDER, 6n)]),
    );
    expect(receipt?.status).toBe('success');
    expect(receipt?.logs.map((log) => decodeTransfer(log))).toEqual([
      { token: other, from: SENDER.toLowerCase(), to: RECIPIENT.toLowerCase(), value: 5n },
      { token: TOKEN.toLowerCase(), from: RECIPIENT.toLowerCase(), to: SENDER.toLowerCase(), value: 6n },
    ]);
  });

  it('reads a receipt without logs (a plain ETH transfer)', () => {
    expect(parseReceipt(receiptOf([]))).toEqual({ status: 'success', logs: [] });
  });

  it('tells a reverted receipt and refuses one it cannot read', () => {
    expect(parseReceipt(receiptOf([], '0x0'))?.status).toBe('reverted');
    expect(parseReceipt(null)).toBeNull();
    expect(parseReceipt([])).toBeNull();
    expect(parseReceipt({ logs: [] })).toBeNull();
    expect(parseReceipt(receiptOf([], '0x2'))).toBeNull();
    expect(parseReceipt({ status: '0x1' })).toBeNull();
    expect(parseReceipt({ status: '0x1', logs: [{ address: TOKEN, topics: 'no', data: '0x' }] })).toBeNull();
    expect(parseReceipt({ status: '0x1', logs: [{ address: TOKEN, topics: [1], data: '0x' }] })).toBeNull();
  });
});

describe('decodeDecimals', () => {
  it('reads an ABI-encoded uint8 and refuses anything else', () => {
    expect(decodeDecimals(encodeAbiParameters([{ type: 'uint8' }], [18]))).toBe(18);
    expect(decodeDecimals(encodeAbiParameters([{ type: 'uint8' }], [0]))).toBe(0);
    expect(decodeDecimals(encodeAbiParameters([{ type: 'uint256' }], [256n]))).toBeNull();
    expect(decodeDecimals('0x')).toBeNull();
    expect(decodeDecimals(null)).toBeNull();
    expect(decodeDecimals('0x12')).toBeNull();
  });
});
