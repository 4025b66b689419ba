import { createPublicClient, custom, http } from 'viem';
import { getBalance, getBlockNumber, getChainId } from 'viem/actions';
import { describe, expect, inject, it } from 'vitest';
import { createWalletService } from '../../src/services/wallet/index.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { installMockWallet, type MockWalletTarget } from '../support/mock-wallet.ts';

// The wallet service through the mock EIP-6963 wallet, which forwards what it
// does not answer itself to the stack's real chain. The wallet holds the
// deployer account and only reads: nothing here sends a transaction.
const chain = inject('chain');
const deployer = testAccount('deployer');
const node = createPublicClient({ transport: http(chain.rpcUrl) });

function connectMockWallet() {
  const window: MockWalletTarget = new EventTarget();
  const mock = installMockWallet(window, {
    rpcUrl: chain.rpcUrl,
    accounts: [deployer.address],
    chainId: chain.chainId,
    rdns: 'io.metamask',
  });
  const service = createWalletService({
    window,
    chain: {
      id: chain.chainId,
      name: 'Hardhat',
      rpcUrl: chain.rpcUrl,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    },
  });
  return { mock, service, viaWallet: createPublicClient({ transport: custom(mock.provider) }) };
}

describe('wallet service with the mock wallet on the local chain', () => {
  it('connects to the deployer account on chain 31337, the chain the node runs', async () => {
    const { service } = connectMockWallet();
    expect(await service.discover()).toMatchObject({ available: true, info: { rdns: 'io.metamask' } });
    expect(await service.requestAccounts()).toEqual({ address: deployer.address, chainId: 31337 });
    expect(await getChainId(node)).toBe(31337);
  });

  it('reads the balance through the wallet provider, as the node reports it', async () => {
    const { mock, viaWallet } = connectMockWallet();
    const [throughWallet, direct] = await Promise.all([
      getBalance(viaWallet, { address: deployer.address }),
      getBalance(node, { address: deployer.address }),
    ]);
    expect(throughWallet).toBe(direct);
    expect(throughWallet).toBeGreaterThan(0n);
    expect(await getBlockNumber(viaWallet, { cacheTime: 0 })).toBeGreaterThan(0n);
    expect(mock.requests).toEqual(expect.arrayContaining(['eth_getBalance', 'eth_blockNumber']));
  });

  it("passes the node's errors on with their JSON-RPC code", async () => {
    const { mock } = connectMockWallet();
    await expect(
      mock.provider.request({ method: 'eth_getBalance', params: ['not an address', 'latest'] }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});
