import {
  BaseError,
  ContractFunctionRevertedError,
  createClient,
  decodeFunctionData,
  encodeFunctionData,
  formatUnits,
  getContractError,
  getAddress,
  http,
  isAddress,
  keccak256,
  maxUint256,
  parseTransaction,
  RpcRequestError,
  zeroAddress,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import {
  getChainId,
  getTransaction,
  getTransactionCount,
  getTransactionReceipt,
  prepareTransactionRequest,
  readContract,
  sendRawTransaction,
  waitForTransactionReceipt,
} from 'viem/actions';
import { parseTokenAmount } from '../../domain/token.ts';
import {
  TokenServiceError,
  type BroadcastTransferRequest,
  type ConfirmTransferRequest,
  type PreparedTransfer,
  type PrepareTransferRequest,
  type PrepareWalletTransferRequest,
  type SignedTransfer,
  type SignTransferRequest,
  type TokenBalance,
  type TokenProblem,
  type TokenService,
  type TokenServiceConfig,
  type TransferResult,
  type WalletTransfer,
} from './types.ts';

// Only what the service calls, plus OpenZeppelin 5's custom errors so a refused
// transfer decodes to its cause instead of "unrecognized custom error".
export const tokenAbi = [
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'decimals',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'uint8' }],
  },
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
  {
    type: 'error',
    name: 'ERC20InsufficientBalance',
    inputs: [
      { name: 'sender', type: 'address' },
      { name: 'balance', type: 'uint256' },
      { name: 'needed', type: 'uint256' },
    ],
  },
  { type: 'error', name: 'ERC20InvalidReceiver', inputs: [{ name: 'receiver', type: 'address' }] },
  { type: 'error', name: 'ERC20InvalidSender', inputs: [{ name: 'sender', type: 'address' }] },
] as const;

const REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_CONFIRMATION_TIMEOUT_MS = 120_000;
const POLLING_INTERVAL_MS = 1_000;
// A scalar outside [1, n) is not a secp256k1 key; checked here so the signer's
// own error, which echoes the key as a decimal number, is never raised.
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Accepts 64 hex digits with or without 0x; returns lower-case 0x-prefixed hex. */
export function normalizePrivateKey(text: string): Hex {
  const digits = text.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(digits)) {
    throw new TokenServiceError({ code: 'invalid-private-key-format' });
  }
  const key = `0x${digits.toLowerCase()}` as const;
  const scalar = BigInt(key);
  if (scalar === 0n || scalar >= SECP256K1_ORDER) {
    throw new TokenServiceError({ code: 'invalid-private-key-value' });
  }
  return key;
}

/**
 * Lower- or upper-case addresses carry no checksum and are accepted as they are; mixed case is an
 * EIP-55 checksum, and one that does not match is refused as the typo it most likely is.
 */
export function parseRecipient(text: string): Address {
  const trimmed = text.trim();
  if (!isAddress(trimmed, { strict: false })) {
    throw new TokenServiceError({ code: 'invalid-recipient' });
  }
  const address = getAddress(trimmed);
  const digits = trimmed.slice(2);
  const mixedCase = digits !== digits.toLowerCase() && digits !== digits.toUpperCase();
  if (mixedCase && address !== trimmed) throw new TokenServiceError({ code: 'invalid-recipient' });
  if (address === zeroAddress) {
    throw new TokenServiceError({ code: 'zero-recipient' });
  }
  return address;
}

function parseHolder(text: string): Address {
  const trimmed = text.trim();
  if (!isAddress(trimmed, { strict: false })) {
    throw new TokenServiceError({ code: 'invalid-address' });
  }
  return getAddress(trimmed);
}

/**
 * The syntax check, which needs no network: plain decimal digits with an optional point, above
 * zero. The domain's parser (src/domain/token.ts) is given room for every digit typed, so before
 * the token's decimals are known it refuses only text that is no number, or zero.
 */
export function checkAmountText(text: string): void {
  const parsed = parseTokenAmount(text, text.length);
  if ('problem' in parsed) {
    throw new TokenServiceError({
      code: parsed.problem.code === 'invalid-amount' ? 'invalid-amount' : 'zero-amount',
    });
  }
}

/**
 * The exact amount in the token's smallest unit, by the domain's parser. Fraction digits beyond the
 * token's decimals are refused rather than rounded.
 */
export function parseAmount(text: string, decimals: number): bigint {
  checkAmountText(text);
  const parsed = parseTokenAmount(text, decimals);
  // Past the check above the text is a number above zero: what is left to refuse is a fraction
  // finer than the token's decimals, whether the domain calls it too many decimals or below the minimum.
  if ('problem' in parsed) throw new TokenServiceError({ code: 'too-many-decimals', decimals });
  if (parsed.raw > maxUint256) throw new TokenServiceError({ code: 'amount-too-large' });
  return parsed.raw;
}

type FailureContext = {
  /** Strings that must never leave the service (the private key in its spellings). */
  secrets?: readonly string[];
  decimals?: number | undefined;
  hash?: Hash | undefined;
};

/**
 * Turns anything thrown while talking to the node into a TokenServiceError saying what went wrong.
 * The viem error is not kept as the cause (its chain holds request details we do not control); a
 * redacted one-line summary is kept instead, for diagnostics.
 */
export function toTokenServiceError(error: unknown, context: FailureContext = {}): TokenServiceError {
  if (error instanceof TokenServiceError) return error;
  return new TokenServiceError(classify(error, context.decimals), {
    cause: summarise(error, context.secrets ?? []),
    hash: context.hash,
  });
}

function classify(error: unknown, decimals: number | undefined): TokenProblem {
  if (!(error instanceof BaseError)) return { code: 'unknown' };

  const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (revert instanceof ContractFunctionRevertedError) {
    const decoded = revert.data;
    if (decoded?.errorName === 'ERC20InsufficientBalance') {
      const [, balance, needed] = decoded.args as readonly [Address, bigint, bigint];
      return {
        code: 'insufficient-token-balance',
        figures:
          decimals === undefined
            ? null
            : { balance: formatUnits(balance, decimals), needed: formatUnits(needed, decimals) },
      };
    }
    if (decoded?.errorName === 'ERC20InvalidReceiver') return { code: 'invalid-receiver' };
    return { code: 'refused', revertReason: revert.reason || null };
  }

  // Geth and most providers say "insufficient funds for gas * price + value"
  // (viem's InsufficientFundsError); Hardhat says "Sender doesn't have enough funds to send tx".
  if (
    error.walk((e) => (e as Error).name === 'InsufficientFundsError') ||
    matchesAnywhere(error, /insufficient funds|doesn't have enough funds/i)
  ) {
    return { code: 'insufficient-funds-for-gas' };
  }

  const mismatch = error.walk((e) => (e as Error).name === 'ChainMismatchError');
  if (mismatch || matchesAnywhere(error, /invalid chain ?id/i)) return { code: 'chain-mismatch' };

  const http = error.walk((e) => (e as Error).name === 'HttpRequestError') as { status?: number } | null;
  if (http) return { code: 'rpc-unavailable', status: http.status ?? null };
  if (
    error.walk((e) =>
      ['TimeoutError', 'WebSocketRequestError', 'SocketClosedError'].includes((e as Error).name),
    )
  ) {
    return { code: 'rpc-unavailable', status: null };
  }

  if (error.walk((e) => (e as Error).name === 'ContractFunctionZeroDataError')) {
    return { code: 'no-token-contract' };
  }
  return { code: 'unknown' };
}

function matchesAnywhere(error: BaseError, pattern: RegExp): boolean {
  return Boolean(
    error.walk((e) => {
      const { details, message } = e as { details?: unknown; message?: unknown };
      return (
        (typeof details === 'string' && pattern.test(details)) ||
        (typeof message === 'string' && pattern.test(message))
      );
    }),
  );
}

function summarise(error: unknown, secrets: readonly string[]): Error {
  let name = 'Error';
  let text = String(error);
  if (error instanceof BaseError) {
    name = error.name;
    text = error.details ? `${error.shortMessage} (${error.details})` : error.shortMessage;
  } else if (error instanceof Error) {
    name = error.name;
    text = error.message;
  }
  const summary = new Error(redact(text, secrets));
  summary.name = redact(name, secrets);
  // The stack would only point into viem and repeat the message.
  summary.stack = `${summary.name}: ${summary.message}`;
  return summary;
}

function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length < 8) continue;
    const needle = secret.toLowerCase();
    let at = result.toLowerCase().indexOf(needle);
    while (at !== -1) {
      result = `${result.slice(0, at)}[redacted]${result.slice(at + needle.length)}`;
      at = result.toLowerCase().indexOf(needle);
    }
  }
  return result;
}

/** Every spelling of the key an error message could plausibly carry. */
function secretsOf(key: Hex): string[] {
  return [key.slice(2), BigInt(key).toString(10)];
}

async function signerFor(privateKey: Hex): Promise<PrivateKeyAccount> {
  // The secp256k1 signer is the heaviest part of viem; only a transfer needs it.
  const { privateKeyToAccount } = await import('viem/accounts');
  try {
    return privateKeyToAccount(privateKey);
  } catch {
    // Not rethrown: the signer's message can quote the key.
    throw new TokenServiceError({ code: 'invalid-private-key-value' });
  }
}

export function createTokenService(config: TokenServiceConfig): TokenService {
  if (!isAddress(config.tokenAddress, { strict: false })) {
    throw new TypeError('createTokenService: tokenAddress is not an address');
  }
  const tokenAddress = getAddress(config.tokenAddress);
  const confirmationTimeoutMs = config.confirmationTimeoutMs ?? DEFAULT_CONFIRMATION_TIMEOUT_MS;
  const chain: Chain = {
    id: config.chainId,
    // Only viem's own messages use it, and those never reach the user.
    name: `chain ${config.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  };
  // Bare clients with actions imported one by one keep the bundle to what is used.
  const reads = createClient({
    chain,
    transport: http(config.rpcUrl, { timeout: REQUEST_TIMEOUT_MS, retryCount: 2 }),
    pollingInterval: POLLING_INTERVAL_MS,
  });
  // viem retries JSON-RPC "internal errors", which is how nodes report a
  // reverting estimate, and retrying a send could broadcast it twice.
  const sends = createClient({
    chain,
    transport: http(config.rpcUrl, { timeout: REQUEST_TIMEOUT_MS, retryCount: 0 }),
    pollingInterval: POLLING_INTERVAL_MS,
  });

  async function assertChain(): Promise<void> {
    const actual = await getChainId(reads);
    if (actual !== config.chainId) {
      throw new TokenServiceError({ code: 'wrong-chain', actual, expected: config.chainId });
    }
  }

  // Balances are read often; the chain id and decimals cannot change under a
  // fixed RPC URL and contract, so both are checked once (and again after a failure).
  let chainChecked: Promise<void> | undefined;
  const checkChainOnce = () => {
    chainChecked ??= assertChain().catch((error: unknown) => {
      chainChecked = undefined;
      throw error;
    });
    return chainChecked;
  };

  let knownDecimals: number | undefined;
  let decimalsRead: Promise<number> | undefined;
  const tokenDecimals = () => {
    decimalsRead ??= readContract(reads, {
      address: tokenAddress,
      abi: tokenAbi,
      functionName: 'decimals',
    }).then(
      (decimals) => (knownDecimals = decimals),
      (error: unknown) => {
        decimalsRead = undefined;
        throw error;
      },
    );
    return decimalsRead;
  };

  /** The DDEX transfer a signed transaction carries, refusing anything else before it is sent. */
  function transferIn(serialized: Hex): { to: Address; raw: bigint } {
    const refuse = (why: string) => new TokenServiceError({ code: 'unknown' }, { cause: new Error(why) });
    let call;
    try {
      const tx = parseTransaction(serialized);
      if (tx.r === undefined || tx.chainId !== config.chainId) throw new Error();
      if (!tx.to || getAddress(tx.to) !== tokenAddress || !tx.data) throw new Error();
      call = decodeFunctionData({ abi: tokenAbi, data: tx.data });
    } catch {
      throw refuse(`not a signed DDEX transaction for chain ${config.chainId}`);
    }
    if (call.functionName !== 'transfer') throw refuse(`a DDEX ${call.functionName} call, not a transfer`);
    const [to, raw] = call.args;
    return { to: getAddress(to), raw };
  }

  /** Everything a transfer from `from` needs checked that no key is needed for. */
  async function checkTransfer(
    from: Address,
    request: { to: string; amount: string },
    secrets: readonly string[] = [],
  ): Promise<PreparedTransfer> {
    const to = parseRecipient(request.to);
    checkAmountText(request.amount);
    try {
      // viem does not compare the node's chain with the client's for locally
      // signed transactions; the node would refuse them with an obscure
      // "invalid chainId". Checked on every transfer, as the key is about to be used.
      await assertChain();
      const [decimals, balance] = await Promise.all([
        tokenDecimals(),
        readContract(reads, {
          address: tokenAddress,
          abi: tokenAbi,
          functionName: 'balanceOf',
          args: [from],
        }),
      ]);
      const raw = parseAmount(request.amount, decimals);
      if (balance < raw) {
        throw new TokenServiceError({
          code: 'insufficient-token-balance',
          figures: { balance: formatUnits(balance, decimals), needed: formatUnits(raw, decimals) },
        });
      }
      return { from, to, raw, amount: formatUnits(raw, decimals), decimals };
    } catch (error) {
      throw toTokenServiceError(error, { secrets, decimals: knownDecimals });
    }
  }

  async function prepare({ expectedFrom, ...request }: PrepareTransferRequest): Promise<PreparedTransfer> {
    const privateKey = normalizePrivateKey(request.privateKey);
    const secrets = secretsOf(privateKey);
    const expected = parseHolder(expectedFrom);
    const { address: from } = await signerFor(privateKey);
    if (from !== expected) throw new TokenServiceError({ code: 'key-mismatch' });
    return checkTransfer(from, request, secrets);
  }

  async function prepareForWallet(request: PrepareWalletTransferRequest): Promise<WalletTransfer> {
    const from = parseHolder(request.from);
    const prepared = await checkTransfer(from, request);
    const data = encodeFunctionData({
      abi: tokenAbi,
      functionName: 'transfer',
      args: [prepared.to, prepared.raw],
    });
    return { prepared, call: { from, to: tokenAddress, data } };
  }

  /**
   * The nonce and fees of the unresolved transaction a new one replaces: its nonce, so at most one of
   * the two is mined, and fees at least an eighth higher, the least a node accepts for a replacement.
   */
  function replacing(serialized: Hex) {
    let tx;
    try {
      tx = parseTransaction(serialized);
      if (tx.nonce === undefined || tx.chainId !== config.chainId) throw new Error();
    } catch {
      throw new TokenServiceError({ code: 'unknown' }, { cause: new Error('no nonce to replace') });
    }
    const bump = (fee: bigint | undefined) => (fee === undefined ? 0n : fee + (fee + 7n) / 8n);
    return {
      nonce: tx.nonce,
      raise: (request: { maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint }) => {
        const maxFeePerGas = bump(tx.maxFeePerGas ?? tx.gasPrice);
        const maxPriorityFeePerGas = bump(tx.maxPriorityFeePerGas ?? tx.gasPrice);
        return {
          maxFeePerGas: (request.maxFeePerGas ?? 0n) > maxFeePerGas ? request.maxFeePerGas : maxFeePerGas,
          maxPriorityFeePerGas:
            (request.maxPriorityFeePerGas ?? 0n) > maxPriorityFeePerGas
              ? request.maxPriorityFeePerGas
              : maxPriorityFeePerGas,
        };
      },
    };
  }

  async function sign({ privateKey: text, prepared }: SignTransferRequest): Promise<SignedTransfer> {
    const privateKey = normalizePrivateKey(text);
    const secrets = secretsOf(privateKey);
    const account = await signerFor(privateKey);
    if (account.address !== getAddress(prepared.from)) {
      throw new TokenServiceError({ code: 'key-mismatch' });
    }
    const args = [parseRecipient(prepared.to), prepared.raw] as const;
    const replaced = prepared.replaces ? replacing(prepared.replaces) : null;
    try {
      const filled = await prepareTransactionRequest(sends, {
        account,
        chain,
        ...(replaced ? { nonce: replaced.nonce } : {}),
        to: tokenAddress,
        data: encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args }),
      }).catch((error: unknown) => {
        // As writeContract does, so a refusal the gas estimate foresees decodes to its cause.
        throw getContractError(error as BaseError, {
          abi: tokenAbi,
          address: tokenAddress,
          args,
          functionName: 'transfer',
          sender: account.address,
        });
      });
      const request = replaced ? { ...filled, ...replaced.raise(filled) } : filled;
      const serialized = await account.signTransaction(request as never);
      return { serialized, hash: keccak256(serialized) };
    } catch (error) {
      throw toTokenServiceError(error, { secrets, decimals: prepared.decimals });
    }
  }

  /**
   * A failure once the node may hold the transaction: it may be mined, so the user must not be
   * told it failed (a retry would pay twice); the hash says which transaction to look for.
   */
  function maybeSent(error: unknown, hash: Hash): TokenServiceError {
    const failure = toTokenServiceError(error, { decimals: knownDecimals, hash });
    return new TokenServiceError(
      { code: 'sent-but-unchecked', failure: failure.problem },
      { hash, cause: failure.cause as Error | undefined },
    );
  }

  /**
   * Sends signed bytes. Only a JSON-RPC error answer proves the node refused them; a timeout, a
   * lost answer or an HTTP failure may come after it accepted them. "Already known" means it has them.
   */
  async function send(serialized: Hex, hash: Hash): Promise<void> {
    try {
      await sendRawTransaction(sends, { serializedTransaction: serialized });
    } catch (error) {
      const refused = error instanceof BaseError && error.walk((e) => e instanceof RpcRequestError);
      if (!refused) throw maybeSent(error, hash);
      if (!matchesAnywhere(error as BaseError, /already known|known transaction/i)) {
        throw toTokenServiceError(error, { decimals: knownDecimals });
      }
    }
  }

  /** The DDEX transfer a mined transaction made, read from the chain (a wallet's send). */
  async function transferOf(hash: Hash): Promise<{ to: Address; raw: bigint }> {
    const tx = await getTransaction(reads, { hash });
    try {
      if (!tx.to || getAddress(tx.to) !== tokenAddress) throw new Error();
      const call = decodeFunctionData({ abi: tokenAbi, data: tx.input });
      if (call.functionName !== 'transfer') throw new Error();
      return { to: getAddress(call.args[0]), raw: call.args[1] };
    } catch {
      throw new TokenServiceError({ code: 'unknown' }, { hash, cause: new Error('not a DDEX transfer') });
    }
  }

  /** Waits for a sent transaction's receipt; every failure carries its hash. */
  async function settle(hash: Hash, transfer: { to: Address; raw: bigint } | null): Promise<TransferResult> {
    try {
      const receipt = await waitForTransactionReceipt(reads, {
        hash,
        timeout: confirmationTimeoutMs,
        pollingInterval: POLLING_INTERVAL_MS,
      });
      if (receipt.status !== 'success') {
        throw new TokenServiceError({ code: 'reverted' }, { hash });
      }
      const { to, raw } = transfer ?? (await transferOf(hash));
      return { hash, from: getAddress(receipt.from), to, raw, blockNumber: receipt.blockNumber };
    } catch (error) {
      if (error instanceof TokenServiceError) throw error;
      if (
        error instanceof BaseError &&
        error.walk((e) => (e as Error).name === 'WaitForTransactionReceiptTimeoutError')
      ) {
        throw new TokenServiceError(
          { code: 'not-confirmed', seconds: Math.round(confirmationTimeoutMs / 1000) },
          { hash, cause: summarise(error, []) },
        );
      }
      throw maybeSent(error, hash);
    }
  }

  async function broadcast({ serialized }: BroadcastTransferRequest): Promise<TransferResult> {
    const transfer = transferIn(serialized);
    // Known before anything is sent, so a lost answer can still name the transaction.
    const hash = keccak256(serialized);
    await send(serialized, hash);
    return settle(hash, transfer);
  }

  /**
   * The node refused bytes it did not know (a lagging node can also miss a mined transaction): the
   * receipt is asked for again, then whether the sender's nonce went to another transaction. Only
   * then can this one never be mined; in any other case it stays unresolved.
   */
  async function afterRefusedResend(hash: Hash, serialized: Hex, from: string | undefined, refusal: unknown) {
    if (refusal instanceof TokenServiceError && refusal.hash !== undefined) throw refusal;
    const mined = () => getTransactionReceipt(reads, { hash }).then(Boolean, () => false);
    try {
      if (await mined()) return;
      const { nonce } = parseTransaction(serialized);
      if (from !== undefined && nonce !== undefined) {
        const used = await getTransactionCount(reads, { address: parseHolder(from), blockTag: 'latest' });
        // Asked again after the count, so a receipt mined in between is not taken for another's.
        if (used > nonce && (await mined())) return;
        if (used > nonce) {
          const failure = toTokenServiceError(refusal, { decimals: knownDecimals });
          throw new TokenServiceError(failure.problem, {
            hash,
            replaced: true,
            cause: failure.cause as Error,
          });
        }
      }
    } catch (error) {
      if (error instanceof TokenServiceError && error.replaced) throw error;
    }
    throw maybeSent(refusal, hash);
  }

  async function confirm({ hash, serialized, from }: ConfirmTransferRequest): Promise<TransferResult> {
    if (serialized === null) return settle(hash, null);
    const transfer = transferIn(serialized);
    if (keccak256(serialized) !== hash) {
      throw new TokenServiceError(
        { code: 'unknown' },
        { cause: new Error('the hash is not of these bytes') },
      );
    }
    const known = await getTransaction(reads, { hash }).then(
      () => true,
      (error: unknown) => {
        if (
          error instanceof BaseError &&
          error.walk((e) => (e as Error).name === 'TransactionNotFoundError')
        ) {
          return false;
        }
        throw maybeSent(error, hash);
      },
    );
    // The node never had it: the same bytes again, which can be mined once at most.
    if (!known) {
      await send(serialized, hash).catch((error: unknown) =>
        afterRefusedResend(hash, serialized, from, error),
      );
    }
    return settle(hash, transfer);
  }

  return {
    async readBalance(holder: string): Promise<TokenBalance> {
      const address = parseHolder(holder);
      try {
        await checkChainOnce();
        const [decimals, raw] = await Promise.all([
          tokenDecimals(),
          readContract(reads, {
            address: tokenAddress,
            abi: tokenAbi,
            functionName: 'balanceOf',
            args: [address],
          }),
        ]);
        return { raw, formatted: formatUnits(raw, decimals), decimals };
      } catch (error) {
        throw toTokenServiceError(error, { decimals: knownDecimals });
      }
    },

    prepareTransfer: prepare,
    signTransfer: sign,
    broadcastTransfer: broadcast,
    prepareWalletTransfer: prepareForWallet,
    confirmTransfer: confirm,
  };
}
