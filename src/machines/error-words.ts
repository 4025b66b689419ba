// The words a user reads for a failure a service reported. Services speak in
// typed codes (src/domain); this is the one place that turns a code into the
// copy's text, so no service needs to know the product's wording.

/** What to tell the user about this failure, or null when it says nothing usable. */
export function describeError(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { message } = error;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return null;
}
