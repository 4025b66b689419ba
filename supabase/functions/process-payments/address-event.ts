// Tatum's address-event webhook body (legacy format), checked field by field
// so a malformed delivery is refused with a list of what is wrong.

export type AddressEvent = {
  address: string;
  amount: string;
  asset: string;
  blockNumber: number;
  counterAddress: string | null;
  txId: string;
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
      type: type as AddressEvent['type'],
      chain,
      subscriptionType: 'ADDRESS_EVENT',
    },
  };
}
