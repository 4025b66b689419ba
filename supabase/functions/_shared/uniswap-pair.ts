// The DDEX/WETH pair of the Uniswap V2 market, found as the portal finds it (router → factory()
// and WETH() → getPair), so one router address (UNISWAP_V2_ROUTER, the app's
// VITE_UNISWAP_V2_ROUTER) configures the app and every function that needs the market. Raw
// eth_call and hand decoding, as elsewhere in the functions that read the chain: three calls of
// one word each are not worth viem's weight in every function that imports this (only link-wallet,
// which verifies signatures, takes viem in).
import { ADDRESS_WORD } from './address.ts';
import type { RpcCall } from './rpc.ts';

const FACTORY = '0xc45a0155'; // factory()
const WETH = '0xad5c4648'; // WETH()
const GET_PAIR = '0xe6a43905'; // getPair(address,address)
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

/** The DDEX/WETH market as the router names it: the pair and the router's WETH (lower case). */
export type Market = { pair: string; weth: string };

/**
 * The pair and WETH, asked once per function instance: a deployed pair never moves. Null while
 * the factory has no such pair; that answer is not kept, as the pair may be created later. A
 * failed read is retried on the next call rather than cached.
 */
export function marketOf(rpc: RpcCall, router: string, tokenAddress: string): () => Promise<Market | null> {
  const market = once(async (): Promise<Market> => {
    const [factory, weth] = await Promise.all([
      call(rpc, router, FACTORY).then((result) => address(result, 'factory()')),
      call(rpc, router, WETH).then((result) => address(result, 'WETH()')),
    ]);
    const data = `${GET_PAIR}${word(weth)}${word(tokenAddress)}`;
    const found = address(await call(rpc, factory, data), 'getPair()');
    if (found === ZERO_ADDRESS) throw new NoPair();
    return { pair: found, weth };
  });
  return () =>
    market().catch((error: unknown) => {
      if (error instanceof NoPair) return null;
      throw error;
    });
}

/** The pair's address alone (lower case), as marketOf finds and keeps it. */
export function marketPair(rpc: RpcCall, router: string, tokenAddress: string): () => Promise<string | null> {
  const market = marketOf(rpc, router, tokenAddress);
  return async () => (await market())?.pair ?? null;
}

class NoPair extends Error {}

/** The first successful answer of `read`, shared by every caller; a failure is forgotten. */
export function once<T>(read: () => Promise<T>): () => Promise<T> {
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

function call(rpc: RpcCall, to: string, data: string): Promise<unknown> {
  return rpc('eth_call', [{ to, data }, 'latest']);
}

function address(result: unknown, what: string): string {
  const value = typeof result === 'string' ? result.toLowerCase().match(ADDRESS_WORD)?.[1] : undefined;
  // A router address that holds no router answers 0x: the configuration is wrong, the node is not.
  if (value === undefined) throw new Error(`${what}: the Uniswap V2 router's answer is not an address`);
  return `0x${value}`;
}

function word(addr: string): string {
  return addr.slice(2).toLowerCase().padStart(64, '0');
}
