// The fragments of Uniswap V2's ABIs (@uniswap/v2-core 1.0.1, @uniswap/v2-periphery 1.1.0-beta.0)
// that the portal calls, written out rather than imported from the packages' JSON so that only
// these few entries reach the bundle, and typed `as const` so viem checks every call's arguments.

const address = <N extends string>(name: N) => ({ name, type: 'address' }) as const;
const uint256 = <N extends string>(name: N) => ({ name, type: 'uint256' }) as const;
const path = { name: 'path', type: 'address[]' } as const;
const amounts = [{ name: 'amounts', type: 'uint256[]' }] as const;

export const routerAbi = [
  { type: 'function', name: 'factory', stateMutability: 'view', inputs: [], outputs: [address('')] },
  { type: 'function', name: 'WETH', stateMutability: 'view', inputs: [], outputs: [address('')] },
  {
    type: 'function',
    name: 'getAmountsOut',
    stateMutability: 'view',
    inputs: [uint256('amountIn'), path],
    outputs: amounts,
  },
  {
    type: 'function',
    name: 'swapExactETHForTokens',
    stateMutability: 'payable',
    inputs: [uint256('amountOutMin'), path, address('to'), uint256('deadline')],
    outputs: amounts,
  },
  {
    type: 'function',
    name: 'swapExactTokensForETH',
    stateMutability: 'nonpayable',
    inputs: [uint256('amountIn'), uint256('amountOutMin'), path, address('to'), uint256('deadline')],
    outputs: amounts,
  },
] as const;

export const factoryAbi = [
  {
    type: 'function',
    name: 'getPair',
    stateMutability: 'view',
    inputs: [address('tokenA'), address('tokenB')],
    outputs: [address('pair')],
  },
] as const;

export const pairAbi = [
  {
    type: 'function',
    name: 'getReserves',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'reserve0', type: 'uint112' },
      { name: 'reserve1', type: 'uint112' },
      { name: 'blockTimestampLast', type: 'uint32' },
    ],
  },
  {
    type: 'event',
    name: 'Swap',
    inputs: [
      { name: 'sender', type: 'address', indexed: true },
      { name: 'amount0In', type: 'uint256', indexed: false },
      { name: 'amount1In', type: 'uint256', indexed: false },
      { name: 'amount0Out', type: 'uint256', indexed: false },
      { name: 'amount1Out', type: 'uint256', indexed: false },
      { name: 'to', type: 'address', indexed: true },
    ],
  },
  {
    type: 'event',
    name: 'Sync',
    inputs: [
      { name: 'reserve0', type: 'uint112', indexed: false },
      { name: 'reserve1', type: 'uint112', indexed: false },
    ],
  },
] as const;

/** What the DEX needs of DDEX as an ERC-20: balances and the router's allowance. */
export const erc20Abi = [
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [address('account')],
    outputs: [uint256('')],
  },
  {
    type: 'function',
    name: 'allowance',
    stateMutability: 'view',
    inputs: [address('owner'), address('spender')],
    outputs: [uint256('')],
  },
  {
    type: 'function',
    name: 'approve',
    stateMutability: 'nonpayable',
    inputs: [address('spender'), uint256('value')],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const;

/** Uniswap V2 takes 0.3 % of every input (the pair's `* 997 / 1000`). */
export const UNISWAP_V2_FEE_BPS = 30;
