import { BaseError, ContractFunctionRevertedError, decodeErrorResult, isHex, type Hex } from 'viem';
import { DexServiceError, type DexProblem } from './types.ts';

// What went wrong talking to the node, as a DexProblem. The viem error is not kept as the cause
// (its chain holds request details); a one-line summary is, for diagnostics.

/** The router's revert strings for a pool that cannot fill a trade. */
const NO_LIQUIDITY = /INSUFFICIENT_LIQUIDITY/;

export function toDexError(error: unknown): DexServiceError {
  if (error instanceof DexServiceError) return error;
  return new DexServiceError(classify(error), { cause: summarise(error) });
}

function classify(error: unknown): DexProblem {
  if (!(error instanceof BaseError)) return { code: 'unknown' };
  const reason = revertReason(error);
  if (reason !== null && NO_LIQUIDITY.test(reason)) return { code: 'insufficient-liquidity' };
  const named = (...names: string[]) => error.walk((e) => names.includes((e as Error).name));
  if (named('HttpRequestError', 'TimeoutError', 'WebSocketRequestError', 'SocketClosedError')) {
    return { code: 'rpc-unavailable' };
  }
  return { code: 'unknown' };
}

/**
 * The revert string in a failed call: decoded from the revert data when the node returned it,
 * or read from the node's message ("reverted with reason string '…'", as Hardhat words it).
 */
export function revertReason(error: unknown): string | null {
  if (!(error instanceof BaseError)) return null;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError && reverted.reason) return reverted.reason;
  const withData = error.walk((e) => isHex((e as { data?: unknown }).data)) as { data?: Hex } | null;
  if (withData?.data && withData.data.length > 2) {
    try {
      const decoded = decodeErrorResult({ abi: [], data: withData.data });
      if (decoded.errorName === 'Error' && typeof decoded.args[0] === 'string') return decoded.args[0];
    } catch {
      // Not a revert string: a custom error or a panic, which the router does not raise.
    }
  }
  let said: string | null = null;
  error.walk((e) => {
    const { details, message } = e as { details?: unknown; message?: unknown };
    for (const text of [details, message]) {
      const match = typeof text === 'string' ? /reverted with reason string '([^']*)'/.exec(text) : null;
      if (match?.[1] !== undefined) said = match[1];
    }
    return said !== null;
  });
  return said;
}

export function summarise(error: unknown): Error {
  let name = 'Error';
  let text = String(error);
  if (error instanceof BaseError) {
    name = error.name;
    text = error.details ? `${error.shortMessage} (${error.details})` : error.shortMessage;
  } else if (error instanceof Error) {
    name = error.name;
    text = error.message;
  }
  const summary = new Error(text);
  summary.name = name;
  // The stack would only point into viem and repeat the message.
  summary.stack = `${name}: ${text}`;
  return summary;
}
