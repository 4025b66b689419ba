// Reading ERC-20 transfers out of a raw eth_getTransactionReceipt result, by
// hand: the function also runs on Deno Edge Functions, where pulling in viem
// for a topic compare and a hex-to-bigint is not worth its weight.
import { ADDRESS, ADDRESS_WORD } from './address.ts';

/** keccak256('Transfer(address,address,uint256)') */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export type RawLog = {
  address: string;
  topics: string[];
  data: string;
  removed: boolean;
  /** The log's index in its block; absent only where a node leaves it out. */
  logIndex?: number;
};
export type Receipt = { status: 'success' | 'reverted'; logs: RawLog[] };
export type Transfer = { token: string; from: string; to: string; value: bigint };

const WORD = /^0x[0-9a-f]{64}$/;
const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]{0,12})$/i;
/** The parts of a receipt this function relies on, or null when the node sent something else. */
export function parseReceipt(raw: unknown): Receipt | null {
  if (!isRecord(raw) || !Array.isArray(raw['logs'])) return null;
  // Only a post-Byzantium status is trusted: a receipt without one cannot tell success from revert.
  const status = raw['status'] === '0x1' ? 'success' : raw['status'] === '0x0' ? 'reverted' : null;
  if (status === null) return null;
  const logs: RawLog[] = [];
  for (const log of raw['logs'] as unknown[]) {
    if (!isRecord(log)) return null;
    const { address, topics, data, removed, logIndex } = log;
    if (typeof address !== 'string' || typeof data !== 'string' || !Array.isArray(topics)) return null;
    if (!topics.every((topic): topic is string => typeof topic === 'string')) return null;
    if (logIndex !== undefined && (typeof logIndex !== 'string' || !QUANTITY.test(logIndex))) return null;
    logs.push({
      address,
      topics,
      data,
      removed: removed === true,
      ...(logIndex === undefined ? {} : { logIndex: Number.parseInt(logIndex, 16) }),
    });
  }
  return { status, logs };
}

/** The log as an ERC-20 Transfer, or null when it is not one (ERC-721 shares the topic but indexes a 4th). */
export function decodeTransfer(log: RawLog): Transfer | null {
  if (log.removed || log.topics.length !== 3) return null;
  const [topic0, fromTopic, toTopic] = log.topics.map((topic) => topic.toLowerCase());
  const token = log.address.toLowerCase();
  const data = log.data.toLowerCase();
  if (topic0 !== TRANSFER_TOPIC || !ADDRESS.test(token) || !WORD.test(data)) return null;
  const from = fromTopic?.match(ADDRESS_WORD)?.[1];
  const to = toTopic?.match(ADDRESS_WORD)?.[1];
  if (from === undefined || to === undefined) return null;
  return { token, from: `0x${from}`, to: `0x${to}`, value: BigInt(data) };
}

/** A base-unit amount as a plain decimal string: exact, no exponent, no trailing zeros. */
export function formatUnits(value: bigint, decimals: number): string {
  if (value < 0n) return `-${formatUnits(-value, decimals)}`;
  const base = 10n ** BigInt(decimals);
  const whole = value / base;
  const fraction = value % base;
  if (fraction === 0n) return whole.toString();
  return `${whole}.${fraction.toString().padStart(decimals, '0').replace(/0+$/, '')}`;
}

/** The ABI-encoded uint8 that decimals() returns, or null when the reply is not one. */
export function decodeDecimals(result: unknown): number | null {
  if (typeof result !== 'string' || !WORD.test(result.toLowerCase())) return null;
  const value = BigInt(result);
  return value <= 255n ? Number(value) : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
