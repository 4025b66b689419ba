import { walletOf, type PortalWorld } from './world.ts';

// The mock wallet's signature prompt (personal_sign), held open with `holdNext()` so the page is
// seen waiting for it, then answered as the user would.

/** Signature requests the wallet has not answered yet. */
export async function signaturesPending(world: PortalWorld): Promise<number> {
  const wallet = walletOf(world);
  const count = (methods: string[]) => methods.filter((method) => method === 'personal_sign').length;
  return count(await wallet.requests()) - count(await wallet.answered());
}

/** Answers the held prompt: signs, or (with an EIP-1193 `code`, 4001) refuses as the user would. */
export async function answerPrompt(world: PortalWorld, code?: number): Promise<void> {
  if (code !== undefined) await walletOf(world).rejectNext(code);
  await world.page.evaluate(() => window.__mockWalletRelease?.());
}
