import { fromPromise } from 'xstate';
import { faucetMachine, type HumanCheckWidget } from '../machines/faucet/faucet.machine.ts';
import { createFaucetService } from '../services/faucet/index.ts';
import type { FunctionsClient } from '../services/tatum/types.ts';
import type { TokenService } from '../services/token/types.ts';

// The faucet's code, loaded with a signed-in session (src/main.tsx imports this module then, from
// the portal's `loadFaucet` actor): the faucet machine, its service and its human check. The
// portal's root spawns the logic it gives. A local build (the Hardhat chain, 31337) shows a
// stand-in for hCaptcha's widget and loads nothing; any other loads hCaptcha's script on the
// first claim, for the configured site key.

export type FaucetServices = {
  /** The page's one supabase-js client: the faucet function sees its session. */
  client: () => Promise<FunctionsClient>;
  /** Awaits a paid claim's receipt; null without a DDEX contract (the balances are read at once). */
  token: Pick<TokenService, 'confirmTransfer'> | null;
  /** hCaptcha's site key (VITE_HCAPTCHA_SITEKEY); unused on a local build. */
  sitekey: string | null;
};

/** The human check this build shows; read by name, so a local build holds no hCaptcha loader. */
async function humanCheck(sitekey: string | null): Promise<HumanCheckWidget> {
  if (import.meta.env.VITE_CHAIN_ID === '31337') return { kind: 'local' };
  if (!sitekey) throw new Error('VITE_HCAPTCHA_SITEKEY is not set: the human check cannot be shown');
  const { loadHcaptcha } = await import('../services/faucet/hcaptcha-script.ts');
  await loadHcaptcha();
  return { kind: 'hosted', sitekey };
}

export function faucetLogic({ client, token, sitekey }: FaucetServices) {
  const service = createFaucetService({ client });
  return faucetMachine.provide({
    actors: {
      loadHumanCheck: fromPromise(() => humanCheck(sitekey)),
      claimFaucet: fromPromise(({ input }) => service.claim(input.captchaToken)),
      confirmClaim: fromPromise(async ({ input }) =>
        token?.confirmTransfer({ hash: input.txHash as `0x${string}`, serialized: null }),
      ),
    },
  });
}
