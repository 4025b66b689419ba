// Contract reads whose answers never change once deployed, asked once per function instance. A
// failed read is retried on the next request rather than cached.
import { RpcError, type RpcCall } from './rpc.ts';
import { decodeAddressWord } from './swap-log.ts';
import { decodeDecimals } from './transfer-log.ts';

const DECIMALS = '0x313ce567'; // decimals()
const FACTORY = '0xc45a0155'; // factory()
const WETH = '0xad5c4648'; // WETH()
const GET_PAIR = '0xe6a43905'; // getPair(address,address)
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

/** DDEX's decimals(). */
export function tokenDecimals(rpc: RpcCall, tokenAddress: string): () => Promise<number> {
  return once(async () => {
    const value = decodeDecimals(await call(rpc, tokenAddress, DECIMALS));
    if (value === null) throw new RpcError('decimals(): the DDEX contract did not return a uint8');
    return value;
  });
}

/**
 * The DDEX/WETH pair of the router's factory, found as the portal finds it (router → factory() and
 * WETH() → getPair), so one router address configures both. Null while the factory has no such
 * pair: that answer is not kept, as the pair may be created later.
 */
export function marketPair(rpc: RpcCall, router: string, tokenAddress: string): () => Promise<string | null> {
  const pair = once(async () => {
    const [factory, weth] = await Promise.all([
      call(rpc, router, FACTORY).then((result) => address(result, 'factory()')),
      call(rpc, router, WETH).then((result) => address(result, 'WETH()')),
    ]);
    const data = `${GET_PAIR}${word(weth)}${word(tokenAddress)}`;
    const found = address(await call(rpc, factory, data), 'getPair()');
    if (found === ZERO_ADDRESS) throw new NoPair();
    return found;
  });
  return () =>
    pair().catch((error: unknown) => {
      if (error instanceof NoPair) return null;
      throw error;
    });
}

class NoPair extends Error {}

function call(rpc: RpcCall, to: string, data: string): Promise<unknown> {
  return rpc('eth_call', [{ to, data }, 'latest']);
}

function address(result: unknown, what: string): string {
  const value = decodeAddressWord(result);
  // A router address that holds no router answers 0x: the configuration is wrong, the node is not.
  if (value === null) throw new Error(`${what}: the Uniswap V2 router's answer is not an address`);
  return value;
}

function word(addr: string): string {
  return addr.slice(2).toLowerCase().padStart(64, '0');
}

/** The first successful answer of `read`, shared by every caller; a failure is forgotten. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let cached: Promise<T> | null = null;
  return () => {
    if (cached) return cached;
    const pending = read();
    cached = pending;
    pending.catch(() => {
      if (cached === pending) cached = null;
    });
    return pending;
  };
}
