import { parseEther, parseUnits, recoverMessageAddress, toHex, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, inject, it } from 'vitest';
import {
  createLocalWalletProvider,
  type LocalWalletApproval,
} from '../../src/services/local-wallet/provider.ts';
import { erc20Abi, encodeFunctionData } from 'viem';
import { readerOf, sendEth, tokenBalance } from '../support/stack/chain.ts';
import { testAccount } from '../support/stack/accounts.ts';

// The local test wallet's EIP-1193 provider against the real local node: it holds a key of its
// own, asks the person (here the test's `approve`) before it connects, signs or sends, signs
// locally and sends the raw transaction, answers the reads from the node, and a refusal is
// EIP-1193's 4001, so the portal's every path treats it as any wallet's rejection.

const chain = inject('chain');

type Asked = LocalWalletApproval[];

function wallet(answer: boolean | ((request: LocalWalletApproval) => boolean) = true) {
  const key = generatePrivateKey();
  const asked: Asked = [];
  const provider = createLocalWalletProvider({
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    privateKey: key,
    approve: async (request) => {
      asked.push(request);
      return typeof answer === 'function' ? answer(request) : answer;
    },
  });
  return { provider, address: privateKeyToAccount(key).address, asked };
}

const rejection = { code: 4001 };

describe('the local test wallet', () => {
  it('connects once the person approves, on the local chain, and gives no account before', async () => {
    const { provider, address, asked } = wallet();
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([]);
    expect(await provider.request({ method: 'eth_chainId' })).toBe(toHex(chain.chainId));

    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual([address]);
    expect(asked).toEqual([{ kind: 'connect', origin: 'portal' }]);
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([address]);
  });

  it('refuses with 4001 what the person rejects: a connect, a signature, a transaction, and sends nothing', async () => {
    const { provider, address } = wallet((request) => request.kind === 'connect');
    await provider.request({ method: 'eth_requestAccounts' });
    await expect(
      provider.request({ method: 'personal_sign', params: [toHex('Sign in'), address] }),
    ).rejects.toMatchObject(rejection);
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ from: address, to: address, value: '0x1' }],
      }),
    ).rejects.toMatchObject(rejection);
    expect(await readerOf(chain).getTransactionCount({ address })).toBe(0);

    const refusing = wallet(false);
    await expect(refusing.provider.request({ method: 'eth_requestAccounts' })).rejects.toMatchObject(
      rejection,
    );
  });

  it('shows the message it signs and signs it with its own key (personal_sign)', async () => {
    const { provider, address, asked } = wallet();
    await provider.request({ method: 'eth_requestAccounts' });
    const message = 'portal.example wants you to sign in with your Ethereum account';
    const signature = (await provider.request({
      method: 'personal_sign',
      params: [toHex(message), address],
    })) as Hex;
    expect(asked.at(-1)).toEqual({ kind: 'sign', message });
    expect(await recoverMessageAddress({ message, signature })).toBe(address);
  });

  it('shows the transaction, signs it locally and sends it to the node, which mines it', async () => {
    const { provider, address, asked } = wallet();
    await sendEth(chain, testAccount('localWalletFunder'), { address }, parseEther('1'));
    await provider.request({ method: 'eth_requestAccounts' });
    const to = privateKeyToAccount(generatePrivateKey()).address;

    const hash = (await provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: address, to, value: toHex(parseEther('0.25')) }],
    })) as Hex;

    expect(asked.at(-1)).toEqual({ kind: 'transaction', to, value: parseEther('0.25'), data: null });
    const receipt = await readerOf(chain).waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(await readerOf(chain).getBalance({ address: to })).toBe(parseEther('0.25'));
  });

  it('sends a contract call with its data (a DDEX transfer), and answers the reads from the node', async () => {
    const { provider, address } = wallet();
    const funder = testAccount('localWalletFunder');
    await sendEth(chain, funder, { address }, parseEther('1'));
    await provider.request({ method: 'eth_requestAccounts' });
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [address, 0n] });
    const hash = (await provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: address, to: chain.tokenAddress, data }],
    })) as Hex;
    expect((await readerOf(chain).waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await provider.request({ method: 'eth_getBalance', params: [address, 'latest'] })).toMatch(/^0x/);
    expect(await tokenBalance(chain, address)).toBe(parseUnits('0', 18));
  });

  it('stays on the local chain: another chain is unknown to it (4902), and a signature for another account is refused', async () => {
    const { provider } = wallet();
    await provider.request({ method: 'eth_requestAccounts' });
    await expect(
      provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xaa36a7' }] }),
    ).rejects.toMatchObject({ code: 4902 });
    expect(
      await provider.request({
        method: 'wallet_switchEthereumChain',
        params: [{ chainId: toHex(chain.chainId) }],
      }),
    ).toBeNull();
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    await expect(
      provider.request({ method: 'personal_sign', params: [toHex('x'), stranger] }),
    ).rejects.toMatchObject({ code: 4100 });
  });
});
