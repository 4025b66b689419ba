// An EVM address's shape where the stack, the scripts and the benchmarks check one: 0x and 40 hex
// digits in any letter case. No EIP-55 checksum is checked; a wrong one is the wallet's to refuse.

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export function isAddress(value: unknown): value is `0x${string}` {
  return typeof value === 'string' && ADDRESS.test(value);
}

/** 0x and forty zeros: an address nothing is deployed at, which configuration takes for unset. */
export function isZeroAddress(value: string): boolean {
  return /^0x0{40}$/.test(value);
}
