// ours: the DEX Trading tab's words, in a module of their own so that they load with the tab's
// chunk and not with the entry (src/copy/index.ts holds the rest: docs/product.md).

/**
 * ours: the DEX Trading tab (docs/product.md#dex-trading): the swap form, its states and toasts,
 * the market (reserves, prices, chart, last trades), and the words of the DEX service's problems
 * and of the router's revert reasons (worded in src/machines/error-words.ts). A toast's words
 * follow 'Send with wallet': a prompt, the hash while pending, the outcome.
 */
export const dexCopy = {
  eth: 'ETH',
  ddex: 'DDEX',
  /** An amount and its asset ('0.5 ETH'). */
  amountOf: (amount: string, asset: string) => `${amount} ${asset}`,
  /** A percentage already as decimal text ('0.5 %'). */
  percent: (value: string) => `${value} %`,
  percentSign: '%',
  swapTitle: 'Swap',
  buy: 'Buy DDEX',
  sell: 'Sell DDEX',
  sideLegend: 'What to do',
  youPay: 'You pay',
  youReceive: 'You receive',
  balance: (amount: string) => `Balance: ${amount}`,
  amountPlaceholder: '0.0',
  slippageTolerance: 'Slippage tolerance',
  minimumReceived: 'Minimum received',
  priceImpact: 'Price impact',
  /** The price impact and how bad it is ('0.42 % (Low)'). */
  impactOf: (percent: string, words: string) => `${percent} (${words})`,
  poolFee: 'Pool fee',
  deadline: 'Deadline (minutes)',
  approve: 'Approve DDEX',
  allowUnlimited: 'Allow unlimited DDEX',
  allowUnlimitedHint:
    'Lets the router spend any amount of your DDEX from now on, so later sales need no approval. Off, it may spend exactly this amount.',
  swap: 'Swap',
  newSwap: 'New swap',
  backToForm: 'Back to the form',
  /** What the form says in each of its states. */
  connectWallet: 'Connect your wallet to swap',
  switchNetwork: (chain: string) => `Switch to ${chain} to swap`,
  enterAmount: 'Enter an amount',
  quoting: 'Fetching a quote...',
  insufficientBalance: (asset: string) => `Insufficient ${asset} balance`,
  insufficientLiquidity: 'The pool does not hold enough to fill this amount. Try a smaller amount.',
  /** The button's words in the same state. */
  insufficientLiquidityShort: 'Insufficient liquidity',
  needsApproval: 'Selling DDEX needs your approval first: it lets the router take the DDEX you sell.',
  slippageWarning: 'Your slippage tolerance is above 1 %: the swap may fill at a noticeably worse price.',
  slippageRefused: 'A slippage tolerance above 50 % is refused: the swap could lose most of what you pay.',
  /** Asked after 'Swap' when the slippage tolerance is above 5 %, before the wallet is asked. */
  highSlippageTitle: (tolerance: string) => `Swap with a ${tolerance} slippage tolerance?`,
  highSlippageDescription: (minimum: string) =>
    `Above 5 %, the swap may fill far below the quote: you accept as little as ${minimum}. A tolerance this high also lets others trade just before you and keep the difference.`,
  confirmHighSlippage: 'Swap anyway',
  cancel: 'Cancel',
  quoteFailed: 'No quote',
  waitingForWallet: 'Waiting for your wallet...',
  approving: 'Approving DDEX...',
  swapping: 'Swapping...',
  transactionHash: (hash: string) => `Transaction hash: ${hash}`,
  youPaid: 'You paid',
  youReceived: 'You received',
  /** The form's fields, refused before anything is asked of the chain. */
  amountInvalid: 'Enter the amount as a positive decimal number, such as 0.5.',
  amountTooSmall: (asset: string) => `The amount must be at least 0.000000000000000001 ${asset}.`,
  amountTooManyDecimals: 'Use at most 18 digits after the decimal point.',
  slippageInvalid: 'Enter the slippage tolerance as a percentage such as 0.5, with at most two decimals.',
  deadlineInvalid: 'Enter the deadline as a whole number of minutes from 1 to 4320.',
  /** How much a quote loses to the pool's price, by price impact. */
  impact: {
    low: 'Low',
    medium: 'Moderate',
    high: 'High',
    severe: 'Very high: much of what you pay is lost to the price moving against you.',
  },
  /** Toasts. */
  approvalPrompt: {
    title: 'Confirm in Your Wallet',
    description:
      'Your wallet shows the approval and its network fee. Approve it there, or reject it to approve nothing.',
  },
  swapPrompt: {
    title: 'Confirm in Your Wallet',
    description:
      'Your wallet shows the swap and its network fee. Approve it there, or reject it to swap nothing.',
  },
  pendingDescription: (hash: string) => `Transaction hash: ${hash}. Waiting for it to be mined.`,
  approvalPending: 'Approval Pending',
  approved: 'DDEX Approved',
  approvedDescription: (amount: string) => `The router may now spend ${amount} DDEX of yours.`,
  approvedUnlimitedDescription: 'The router may now spend any amount of your DDEX.',
  approvalRejected: {
    title: 'Approval Rejected',
    description: 'You rejected the approval in your wallet, so nothing was sent.',
  },
  approvalFailed: 'Approval Failed',
  swapPending: 'Swap Pending',
  swapConfirmed: 'Swap Confirmed',
  swapConfirmedDescription: (paid: string, received: string) => `You paid ${paid} and received ${received}.`,
  swapRejected: {
    title: 'Swap Rejected',
    description: 'You rejected the swap in your wallet, so nothing was sent.',
  },
  swapReverted: 'Swap Reverted',
  swapFailed: 'Swap Failed',
  swapNotSaved: 'Swap not saved to history',
  swapNotSavedDescription: (hash: string) =>
    `The swap ${hash.slice(0, 10)}... went through, but it could not be added to your transaction history.`,
  /** The market. */
  marketTitle: 'Market',
  marketLoading: 'Loading the market...',
  marketFailed: 'The market could not be loaded.',
  marketRetrying: 'Trying again shortly.',
  retry: 'Try Again',
  marketLost: 'The connection to the node was lost. Reconnecting...',
  marketUnavailable: 'Trading is unavailable',
  atBlock: (block: string) => `Block ${block}`,
  reserves: 'Reserves',
  price: 'Price',
  priceOfDdex: (eth: string) => `1 DDEX = ${eth} ETH`,
  priceOfEth: (ddex: string) => `1 ETH = ${ddex} DDEX`,
  noPrice: 'No price: the pool is empty.',
  chartTitle: 'DDEX price in ETH',
  /** The chart's text alternative: its last point. */
  lastPrice: (eth: string) => `Last price: 1 DDEX = ${eth} ETH`,
  chartEmpty: 'No price changes yet: the chart starts with the next trade.',
  /** The chart's time axis for screen readers: 'Time axis: from <time> to <time>'. */
  timeAxis: { from: 'Time axis: from', to: 'to' },
  tradesTitle: 'Last trades',
  tradesEmpty: 'No trades yet.',
  tradeHeadings: {
    time: 'Time',
    side: 'Side',
    amountIn: 'Amount in',
    amountOut: 'Amount out',
    price: 'Price',
  },
  sides: { buy: 'Buy', sell: 'Sell' },
  /** The DEX service's problems (DexProblem). */
  noPair: 'There is no DDEX/WETH pool on this network yet, so nothing can be traded.',
  noRouter: 'No Uniswap V2 router answers at the configured address on this network.',
  insufficientBalanceOf: (asset: string) => `You do not hold enough ${asset} for this swap.`,
  notConfirmed: (hash: string) =>
    `Transaction ${hash} was sent but not confirmed in time. It may still go through: check your wallet's activity before trying again.`,
  /** The router's revert reasons, in plain words. */
  revertedSlippage:
    'The price moved past your slippage tolerance before the swap was mined, so the router refused it. Nothing was swapped; the network fee was spent.',
  revertedExpired:
    'The deadline passed before the swap was mined, so the router refused it. Nothing was swapped; the network fee was spent.',
  revertedTransferFailed:
    'The router could not take the DDEX you sell: check your balance and the approval. Nothing was swapped; the network fee was spent.',
  revertedReason: (reason: string) =>
    `The router refused the swap (${reason}). Nothing was swapped; the network fee was spent.`,
  reverted: 'The swap was mined but failed on chain. Nothing was swapped; the network fee was spent.',
  /** The wallet's failures while it sends an approval or a swap. */
  walletRejected: 'You rejected the request in your wallet, so nothing was sent.',
  walletWrongChain: 'Your wallet is on another network than the portal. Switch networks, then try again.',
  walletFailed: 'Your wallet could not send the transaction.',
  walletMaybeSent:
    "Your wallet may have sent it before failing. Check your wallet's activity before trying again.",
} as const;
