// Tatum's address-event webhook body (legacy format), checked field by field
// so a malformed delivery is refused with a list of what is wrong.

export type AddressEvent = {
  address: string;
  amount: string;
  asset: string;
  blockNumber: number;
  counterAddress: string | null;
  txId: string;
  /**
   * Which log of the transaction carries the transfer (its index in the block), so two transfers
   * in one transaction are two events. Tatum's enriched bodies and the local emulator send it;
   * the legacy body does not, and a transaction's own ETH value or fee has no log: null.
   */
  logIndex: number | null;
  type: 'native' | 'token' | 'fee';
  chain: string;
  subscriptionType: 'ADDRESS_EVENT';
};

export type ParseResult = { ok: true; event: AddressEvent } | { ok: false; problems: string[] };

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

export function parseAddressEvent(body: unknown): ParseResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, problems: ['body must be a JSON object'] };
  }
  const b = body as Record<string, unknown>;
  const problems: string[] = [];
  const text = (key: string, pattern: RegExp | null, what: string): string => {
    const value = b[key];
    if (typeof value !== 'string' || value === '' || (pattern && !pattern.test(value))) {
      problems.push(`${key} must be ${what}`);
      return '';
    }
    return value;
  };
  const address = text('address', ADDRESS, 'a 0x-prefixed 20-byte hex address');
  const amount = text('amount', DECIMAL, 'a decimal string such as "1.5" or "-0.25"');
  const asset = text('asset', null, 'the asset symbol or token contract');
  const txId = text('txId', TX_HASH, 'a 0x-prefixed 32-byte transaction hash');
  const chain = text('chain', null, 'the chain name');
  const blockNumber = b['blockNumber'];
  if (typeof blockNumber !== 'number' || !Number.isSafeInteger(blockNumber) || blockNumber < 0) {
    problems.push('blockNumber must be a non-negative integer');
  }
  const counter = b['counterAddress'];
  if (counter !== undefined && counter !== null && (typeof counter !== 'string' || !ADDRESS.test(counter))) {
    problems.push('counterAddress must be a 0x-prefixed 20-byte hex address when present');
  }
  const logIndex = b['logIndex'];
  if (
    logIndex !== undefined &&
    logIndex !== null &&
    (typeof logIndex !== 'number' || !Number.isSafeInteger(logIndex) || logIndex < 0)
  ) {
    problems.push('logIndex must be a non-negative integer when present');
  }
  const type = b['type'];
  if (type !== 'native' && type !== 'token' && type !== 'fee') {
    problems.push('type must be one of native, token, fee');
  }
  if (b['subscriptionType'] !== 'ADDRESS_EVENT') problems.push('subscriptionType must be ADDRESS_EVENT');
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    event: {
      address,
      amount,
      asset,
      blockNumber: blockNumber as number,
      counterAddress: typeof counter === 'string' ? counter : null,
      txId,
      logIndex: typeof logIndex === 'number' ? logIndex : null,
      type: type as AddressEvent['type'],
      chain,
      subscriptionType: 'ADDRESS_EVENT',
    },
  };
}

export type Skip = { because: 'other-chain' | 'mempool'; message: string };

/**
 * Why a delivery is answered without being recorded, or null to record it. Asked before the body
 * is checked, since an event of another chain need not look like one of ours (a Tron address):
 * - another chain than the configured one: a subscription made with another network's key, or a
 *   mistake; recording it would show a user money on a network the portal does not use;
 * - a mempool event (`mempool: true`): the transaction is not in a block yet and may never be
 *   (replaced, dropped). Its block event follows and carries everything, so nothing is stored now
 *   rather than a pending row that could stay pending forever.
 */
export function skipOf(body: unknown, chain: string): Skip | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const sent = b['chain'];
  if (typeof sent === 'string' && sent.toLowerCase() !== chain.toLowerCase()) {
    return { because: 'other-chain', message: `chain ${sent} is not the configured chain ${chain}` };
  }
  if (b['mempool'] === true) {
    return {
      because: 'mempool',
      message: `a mempool event of ${String(b['txId'])}: recorded when its block event arrives`,
    };
  }
  return null;
}
