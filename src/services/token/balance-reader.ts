import { isAddress } from '../../domain/wallet.ts';
import { TokenServiceError, type TokenBalance, type TokenService } from './types.ts';

// The DDEX balance is all a reconnecting wallet needs of the token at start, and viem's client,
// transport and error classes are most of the full service's chunk (token-service.ts). This reader
// asks the node itself, the chain id, decimals and balance in one JSON-RPC batch, and reports each
// fault with the problem the full service gives for it (its toTokenServiceError), so the balances
// machine cannot tell the two apart. viem then loads with the first send or the Trading tab.

/** As the full service's: one attempt's limit, reading the answer included. */
const REQUEST_TIMEOUT_MS = 10_000;
/** The full service's two retries of an attempt that got no answer, with viem's backoff. */
const RETRY_DELAYS_MS = [150, 300];
/** The HTTP statuses viem retries. */
const RETRY_STATUSES = [403, 408, 413, 429, 500, 502, 503, 504];
const QUANTITY = /^0x[0-9a-fA-F]+$/;
/** One or more ABI words; only the first is read, as viem does. */
const WORDS = /^0x(?:[0-9a-fA-F]{64})+$/;
// ERC-20's decimals() and balanceOf(address), and Solidity's Error(string) revert.
const DECIMALS = '0x313ce567';
const BALANCE_OF = '0x70a08231';
const ERROR_STRING = '0x08c379a0';

/** Each call's id in a batch; the node's answers may come in any order. */
export const CALL = { chainId: 1, decimals: 2, balance: 3 } as const;

export type BalanceReaderConfig = {
  rpcUrl: string;
  /** The chain the portal is built for; a node on any other chain is refused. */
  chainId: number;
  tokenAddress: string;
  /** The page's fetch unless given. */
  fetch?: typeof fetch;
};

export type BalanceReader = Pick<TokenService, 'readBalance'>;

export type RpcCall = { jsonrpc: '2.0'; id: number; method: string; params: unknown[] };
export type RpcError = { code: number; message: string; data?: unknown };
export type RpcAnswer = { id?: unknown; result?: unknown; error?: RpcError };

/** What viem's formatUnits gives: decimal text without trailing zeros ('12.5', '0'). */
export function formatUnits(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals, '0');
  const whole = digits.slice(0, digits.length - decimals) || '0';
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * One read's calls: the balance, and the chain id and decimals while they are not known. The
 * balance comes first, so the request reads as a balance read where only its first call is shown
 * (a network panel's preview, the start-up e2e test's count).
 */
export function balanceCalls(
  tokenAddress: string,
  holder: string,
  needs: { chainId: boolean; decimals: boolean },
): RpcCall[] {
  const call = (id: number, data: string): RpcCall => ({
    jsonrpc: '2.0',
    id,
    method: 'eth_call',
    params: [{ to: tokenAddress.toLowerCase(), data }, 'latest'],
  });
  const calls = [call(CALL.balance, `${BALANCE_OF}${holder.slice(2).toLowerCase().padStart(64, '0')}`)];
  if (needs.decimals) calls.push(call(CALL.decimals, DECIMALS));
  if (needs.chainId) calls.push({ jsonrpc: '2.0', id: CALL.chainId, method: 'eth_chainId', params: [] });
  return calls;
}

const unavailable = (status: number | null, why: string) =>
  new TokenServiceError({ code: 'rpc-unavailable', status }, { cause: new Error(why) });
const malformed = (why: string) => new TokenServiceError({ code: 'unknown' }, { cause: new Error(why) });

const isRpcError = (answer: unknown): answer is { error: RpcError } => {
  const error = (answer as RpcAnswer | null)?.error;
  return typeof error?.code === 'number' && typeof error.message === 'string';
};

/**
 * Each call's answer by its id, from the node's HTTP answer. A fault of the answer as a whole is
 * what viem makes of it: no JSON is a transport fault, as is an HTTP error unless it carries a
 * JSON-RPC error, which then answers every call; an answer without one per call is malformed.
 */
export function answersOf(status: number, text: string, ids: readonly number[]): Map<number, RpcAnswer> {
  const ok = status >= 200 && status < 300;
  let data: unknown;
  try {
    data = JSON.parse(text || '{}');
  } catch {
    throw unavailable(ok ? null : status, `the node answered HTTP ${status} with something other than JSON`);
  }
  const list: unknown[] = Array.isArray(data) ? data : [data];
  // A node that refuses the whole batch answers with one error, bare or in a one-element array.
  const whole = list.length === 1 && isRpcError(list[0]) ? list[0] : null;
  const answers = new Map<number, RpcAnswer>();
  if (ok) {
    for (const answer of list) {
      const id = (answer as RpcAnswer | null)?.id;
      if (typeof id === 'number' && ids.includes(id)) answers.set(id, answer as RpcAnswer);
    }
    // A single call's answer needs no matching id, as with viem.
    if (ids.length === 1 && list.length === 1 && typeof list[0] === 'object' && list[0] !== null) {
      answers.set(ids[0] as number, list[0] as RpcAnswer);
    }
    if (answers.size === ids.length) return answers;
  }
  if (whole) return new Map(ids.map((id) => [id, whole]));
  if (!ok) throw unavailable(status, `the node answered HTTP ${status}`);
  throw malformed(`the node's answer does not hold one answer per call`);
}

/**
 * A call's result, or its JSON-RPC error as the full service reports it: a revert (code 3, or
 * -32603 as Hardhat sends it) of a contract call is 'refused', anything else 'unknown'.
 */
export function resultOf(answer: RpcAnswer | undefined, method: 'eth_chainId' | 'eth_call'): string {
  const error = answer?.error;
  if (error) {
    const cause = new Error(`the node refused ${method}: ${error.message} (${error.code})`);
    const reverted =
      method === 'eth_call' &&
      (error.code === 3 ||
        error.code === -32603 ||
        (error.code === -32000 && error.message === 'execution reverted' && Boolean(error.data)));
    throw new TokenServiceError(
      reverted ? { code: 'refused', revertReason: revertReason(error) } : { code: 'unknown' },
      { cause },
    );
  }
  if (typeof answer?.result !== 'string') throw malformed(`the node answered ${method} without a result`);
  return answer.result;
}

/** The contract's own reason when it gave Error(string), else what the node said; viem's choice. */
function revertReason(error: RpcError): string | null {
  const data = typeof error.data === 'object' ? (error.data as { data?: unknown } | null)?.data : error.data;
  if (typeof data !== 'string' || data === '0x') return error.message || null;
  if (!data.startsWith(ERROR_STRING)) return null;
  try {
    const words = data.slice(10);
    const at = Number(BigInt(`0x${words.slice(0, 64)}`)) * 2;
    const length = Number(BigInt(`0x${words.slice(at, at + 64)}`)) * 2;
    const hex = words.slice(at + 64, at + 64 + length);
    if (hex.length !== length) return null;
    const bytes = Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
    return new TextDecoder().decode(bytes) || null;
  } catch {
    return null;
  }
}

export function chainIdOf(result: string): number {
  if (!QUANTITY.test(result))
    throw malformed(`the node's chain id is not a hex number: ${result.slice(0, 80)}`);
  return Number(BigInt(result));
}

/** A uint call's value; no data at all is what an address without a contract answers. */
export function uintOf(result: string, what: string): bigint {
  if (result === '0x') {
    throw new TokenServiceError(
      { code: 'no-token-contract' },
      { cause: new Error(`${what} returned no data`) },
    );
  }
  if (!WORDS.test(result)) throw malformed(`${what} returned no uint: ${result.slice(0, 80)}`);
  return BigInt(result.slice(0, 66));
}

export function decimalsOf(result: string): number {
  const decimals = uintOf(result, 'decimals()');
  // A uint8: anything larger would only ever format the balance wrongly.
  if (decimals > 255n) throw malformed(`decimals() returned ${decimals}, more than a uint8 holds`);
  return Number(decimals);
}

/** Credentials in the URL, which fetch refuses, sent as Basic authorization, as viem does. */
function endpoint(rpcUrl: string): { url: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  try {
    const url = new URL(rpcUrl);
    if (url.username) {
      headers['Authorization'] =
        `Basic ${btoa(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`)}`;
      url.username = '';
      url.password = '';
      return { url: url.toString(), headers };
    }
  } catch {
    // Not a URL: fetch says so, as a transport fault.
  }
  return { url: rpcUrl, headers };
}

type Exchange = { status: number; text: string } | { failure: string };

export function createBalanceReader(config: BalanceReaderConfig): BalanceReader {
  if (!isAddress(config.tokenAddress)) {
    throw new TypeError('createBalanceReader: tokenAddress is not an address');
  }
  const { url, headers } = endpoint(config.rpcUrl);
  // The chain id and decimals cannot change under a fixed RPC URL and contract: asked once each,
  // and again after a failure, as the full service does.
  let chainChecked = false;
  let knownDecimals: number | undefined;

  async function attempt(body: string): Promise<Exchange> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    try {
      const response = await (config.fetch ?? fetch)(url, {
        method: 'POST',
        headers,
        body,
        signal: controller.signal,
      });
      return { status: response.status, text: await response.text() };
    } catch (error) {
      if (controller.signal.aborted) return { failure: `no answer within ${REQUEST_TIMEOUT_MS / 1000} s` };
      return { failure: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  async function exchange(calls: RpcCall[]): Promise<Map<number, RpcAnswer>> {
    const body = JSON.stringify(calls.length === 1 ? calls[0] : calls);
    for (let tries = 0; ; tries += 1) {
      const outcome = await attempt(body);
      const delay = RETRY_DELAYS_MS[tries];
      const again = 'failure' in outcome || RETRY_STATUSES.includes(outcome.status);
      if (again && delay !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        continue;
      }
      if ('failure' in outcome) throw unavailable(null, outcome.failure);
      return answersOf(
        outcome.status,
        outcome.text,
        calls.map((call) => call.id),
      );
    }
  }

  return {
    async readBalance(holder: string): Promise<TokenBalance> {
      const address = holder.trim();
      if (!isAddress(address)) throw new TokenServiceError({ code: 'invalid-address' });
      const checkChain = !chainChecked;
      const cached = knownDecimals;
      const answers = await exchange(
        balanceCalls(config.tokenAddress, address, { chainId: checkChain, decimals: cached === undefined }),
      );
      // In the full service's order: the chain first, then the token.
      if (checkChain) {
        const actual = chainIdOf(resultOf(answers.get(CALL.chainId), 'eth_chainId'));
        if (actual !== config.chainId) {
          throw new TokenServiceError({ code: 'wrong-chain', actual, expected: config.chainId });
        }
        chainChecked = true;
      }
      const decimals = cached ?? decimalsOf(resultOf(answers.get(CALL.decimals), 'eth_call'));
      knownDecimals = decimals;
      const raw = uintOf(resultOf(answers.get(CALL.balance), 'eth_call'), 'balanceOf()');
      return { raw, formatted: formatUnits(raw, decimals), decimals };
    },
  };
}
