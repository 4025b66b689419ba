// An EVM address as the functions accept one: 0x and 40 hex digits in any letter case. No EIP-55
// checksum is checked (that needs keccak); where two addresses are compared, both are lower-cased.
export const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * An address as one 32-byte ABI word (a log topic, an eth_call answer), in lower case: left-padded
 * with zeros, the address's 40 digits the match's first group. Anything in the padding means the
 * word holds something else, and guessing an address from it would be wrong.
 */
export const ADDRESS_WORD = /^0x0{24}([0-9a-f]{40})$/;
