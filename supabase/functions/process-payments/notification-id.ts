// The id of the one notification of a history row, or of a reorganisation's correction. The
// row's key cannot stop a second notification: the portal's record-transaction writes its own sends
// and swaps without a word, and the user is still told when the chain confirms them, whoever wrote
// the row first. Tatum's redeliveries, and concurrent ones, all insert this id and exactly one
// insert succeeds. (A notification the user has deleted comes back only if the same event is
// delivered again afterwards, which Tatum does only for a delivery it saw fail.)

/**
 * A UUID (RFC 9562 version 8, name-based on SHA-256) of the user and what is told: the
 * transaction, a kind (the row type, or the correction) and the log, where there is one.
 */
export async function notificationId(
  userId: string,
  transfer: { txId: string; logIndex: number | null },
  type: string,
): Promise<string> {
  const name = ['transfer-notification', userId, transfer.txId.toLowerCase(), type, transfer.logIndex ?? '']
    .map(String)
    .join(':');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(name)));
  const bytes = digest.slice(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80; // version 8
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 9562 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
