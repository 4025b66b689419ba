// Contract reads whose answers never change once deployed, asked once per function instance. A
// failed read is retried on the next request rather than cached. The market's pair is found the
// same way by process-payments, so that lookup is shared.
import { once } from '../_shared/uniswap-pair.ts';
import { RpcError, type RpcCall } from '../_shared/rpc.ts';
import { decodeDecimals } from '../_shared/transfer-log.ts';

export { marketPair } from '../_shared/uniswap-pair.ts';

const DECIMALS = '0x313ce567'; // decimals()

/** DDEX's decimals(). */
export function tokenDecimals(rpc: RpcCall, tokenAddress: string): () => Promise<number> {
  return once(async () => {
    const value = decodeDecimals(await rpc('eth_call', [{ to: tokenAddress, data: DECIMALS }, 'latest']));
    if (value === null) throw new RpcError('decimals(): the DDEX contract did not return a uint8');
    return value;
  });
}
