import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, inject, it } from 'vitest';
import {
  PASSWORD,
  anonClient,
  serviceClient,
  signedInUser,
  uniqueEmail,
  type TestUser,
} from '../support/stack/users.ts';

// The local stack serves every request from one database connection, as many browsers and the
// server functions reach it at once. Each request's transaction must stay its own: another
// request's rollback must not undo it. Auth's transactions are the ones at risk: they wait for
// password hashing and token signing in the middle, when other requests get their turn.

const stack = inject('gateway');
const chain = inject('chain');
const service = serviceClient(stack);
const AT_ONCE = 8;
const range = (count: number) => Array.from({ length: count }, (_, index) => index);
/** profiles_username_length allows 64 characters: this write fails inside its transaction. */
const TOO_LONG = 'x'.repeat(65);

function users(label: string): Promise<TestUser[]> {
  return Promise.all(range(AT_ONCE).map((index) => signedInUser(stack, `${label}-${index}`)));
}

/** A write of this user's own that the database refuses, so its transaction rolls back. */
function refusedWrite(user: TestUser) {
  return user.client.from('profiles').upsert({ id: user.id, email: user.email, username: TOO_LONG });
}

/** Runs `work` while these users' refused writes go on, one round after another, until it ends. */
async function amidRollbacks<T>(bystanders: readonly TestUser[], work: Promise<T>): Promise<T> {
  let done = false;
  const rounds = (async () => {
    while (!done) await Promise.all(bystanders.map(refusedWrite));
  })();
  try {
    return await work;
  } finally {
    done = true;
    await rounds;
  }
}

/** A Sign in with Ethereum message of the portal's, signed by this wallet (by default a new one). */
async function signedMessage(wallet = privateKeyToAccount(generatePrivateKey()), nonce = 'first') {
  const message = [
    '127.0.0.1:5173 wants you to sign in with your Ethereum account:',
    wallet.address,
    '',
    'Sign in to DDEX',
    '',
    'URI: http://127.0.0.1:5173/',
    'Version: 1',
    `Chain ID: ${chain.chainId}`,
    `Nonce: ${nonce}`,
    `Issued At: ${new Date().toISOString()}`,
  ].join('\n');
  return { wallet, message, signature: await wallet.signMessage({ message }) };
}

describe('requests at the same time', () => {
  it('keeps every account signed up at once while writes fail and roll back around them', async () => {
    const bystanders = await users('bystander');
    const emails = range(AT_ONCE).map(() => uniqueEmail('kept'));
    const signUps = await amidRollbacks(
      bystanders,
      Promise.all(emails.map((email) => anonClient(stack).auth.signUp({ email, password: PASSWORD }))),
    );
    expect(signUps.map(({ error }) => error)).toEqual(emails.map(() => null));
    // Each account is there: its owner signs in again with the password.
    const signIns = await Promise.all(
      emails.map((email) => anonClient(stack).auth.signInWithPassword({ email, password: PASSWORD })),
    );
    expect(signIns.map(({ data }) => data.user?.email)).toEqual(emails);
  });

  it('gives every wallet signed in at once its profile while writes fail and roll back around them', async () => {
    const bystanders = await users('bystander');
    const proofs = await Promise.all(range(AT_ONCE).map(() => signedMessage()));
    // Each sign-in goes out just before a refused write, so the write reaches the stack while the
    // sign-in's transaction is open.
    const answers = await Promise.all(
      proofs.flatMap(({ message, signature }, index) => [
        anonClient(stack).auth.signInWithWeb3({ chain: 'ethereum', message, signature }),
        refusedWrite(bystanders[index] as TestUser),
      ]),
    );
    const ids = answers.flatMap((answer) =>
      'data' in answer && answer.data && 'user' in answer.data ? [answer.data.user?.id] : [],
    );
    expect(ids).toHaveLength(AT_ONCE);
    const { data, error } = await service
      .from('profiles')
      .select('id, wallet_address')
      .in('id', ids as string[]);
    expect(error).toBeNull();
    const wallets = Object.fromEntries(
      (data ?? []).map((row) => [row.id, row.wallet_address?.toLowerCase()]),
    );
    expect(wallets).toEqual(
      Object.fromEntries(ids.map((id, index) => [id, proofs[index]?.wallet.address.toLowerCase()])),
    );
  });

  it('signs one wallet in from two tabs at once into one account, whose profile holds the wallet', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const tabs = await Promise.all([signedMessage(wallet, 'tab1'), signedMessage(wallet, 'tab2')]);
    const answers = await Promise.all(
      tabs.map(({ message, signature }) =>
        anonClient(stack).auth.signInWithWeb3({ chain: 'ethereum', message, signature }),
      ),
    );
    expect(answers.map(({ error }) => error)).toEqual([null, null]);
    const [id, other] = answers.map(({ data }) => data.user?.id);
    expect(other).toBe(id);
    const { data } = await service
      .from('profiles')
      .select('wallet_address')
      .eq('id', id ?? '');
    expect(data?.map((row) => row.wallet_address?.toLowerCase())).toEqual([wallet.address.toLowerCase()]);
  });
});
