import { FunctionsHttpError } from '@supabase/supabase-js';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HCAPTCHA_TEST_KEYS } from '../../stack/gateway/hcaptcha-siteverify.ts';
import { sendDdex, tokenBalance } from '../support/stack/chain.ts';
import { startOwnStack, type OwnStack } from '../support/stack/own-stack.ts';
import { fileUsers } from '../support/stack/users.ts';
import { freshWallet, userWithWallet } from '../support/stack/wallets.ts';

// A faucet that cannot pay says so (503 faucet_empty) and takes no claim, so the user may claim
// as soon as it is funded again. On a chain of the file's own, whose faucet wallet the test empties
// and refills (the shared chain's faucet serves the other files).

let own: OwnStack;

beforeAll(async () => {
  own = await startOwnStack('faucet-empty', (chain) => ({
    rpcUrl: chain.rpcUrl,
    tokenAddress: chain.tokenAddress,
    chainId: chain.chainId,
    faucetPrivateKey: chain.faucet.privateKey,
    functions: 'node',
  }));
});

afterAll(async () => {
  await own?.close();
});

async function claimStatus(client: Parameters<typeof userWithWallet>[0]['service']) {
  const { error, response } = await client.functions.invoke('faucet', {
    body: { captcha: HCAPTCHA_TEST_KEYS.response },
  });
  if (error instanceof FunctionsHttpError) {
    const answer = error.context as Response;
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  }
  if (error) throw error;
  return { status: response?.status ?? 200, body: {} };
}

describe('an empty faucet', () => {
  it('answers 503 faucet_empty, takes no claim, and pays once it is funded again', async () => {
    const { chain, gateway } = own;
    const users = fileUsers(gateway);
    const wallet = freshWallet().address;
    const user = await userWithWallet(users, 'faucet-empty', wallet);
    // Everything the faucet holds goes to the deployer.
    const [deployer] = chain.accounts;
    if (!deployer) throw new Error('no deployer');
    await sendDdex(chain, chain.faucet, deployer, await tokenBalance(chain, chain.faucet.address));

    const refused = await claimStatus(user.client);
    expect(refused).toEqual({
      status: 503,
      body: expect.objectContaining({ code: 'faucet_empty' }) as unknown,
    });
    expect(await tokenBalance(chain, wallet)).toBe(0n);

    await sendDdex(chain, deployer, chain.faucet, parseUnits('1000', 18));
    expect((await claimStatus(user.client)).status).toBe(200);
    expect(await tokenBalance(chain, wallet)).toBe(parseUnits('100', 18));
  });
});
