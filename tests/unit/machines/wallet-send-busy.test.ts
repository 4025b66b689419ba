import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPromise, waitFor } from 'xstate';
import { sendCopy, walletCopy } from '../../../src/copy/index.ts';
import type {
  ConfirmTransferRequest,
  TransferResult,
  WalletTransferCall,
} from '../../../src/domain/token.ts';
import { sendMachine } from '../../../src/machines/send/send.machine.ts';
import { createWalletService, type WalletWindow } from '../../../src/services/wallet/index.ts';
import { machineHarness } from '../../support/machines/harness.ts';
import { installMockWallet, type MockWalletTarget } from '../../support/mock-wallet.ts';
import { minedAs, prepared, RECIPIENT, WALLET, withWallet } from '../../support/transfer-fixtures.ts';

// 'Send with wallet' against a wallet that is busy with another request: MetaMask answers -32002,
// and the portal's own wallet service refuses a second prompt while one is open. Either way the
// wallet sent nothing, so the user reads why and may press again at once; no 'Transfer May Have
// Been Sent' holds the form. The send machine runs with the real wallet service over the mock
// EIP-1193 wallet, whose node is a counter on 127.0.0.1 (docs/reliability-and-security.md#sends).

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HASH = `0x${'ef'.repeat(32)}` as const;
const result = minedAs(HASH, 3n);
const call: WalletTransferCall = { from: WALLET, to: TOKEN, data: '0xa9059cbb' };

/** The transactions the wallet's node was given. */
const broadcasts: unknown[] = [];
let node: Server;
let nodeUrl: string;

beforeAll(async () => {
  node = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      response.setHeader('content-type', 'application/json');
      if (method !== 'eth_sendTransaction') {
        response.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: method } }));
        return;
      }
      broadcasts.push(params[0]);
      response.end(JSON.stringify({ jsonrpc: '2.0', id, result: HASH }));
    });
  });
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  nodeUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => node.close(resolve));
});

function setup() {
  broadcasts.length = 0;
  const window: MockWalletTarget & WalletWindow = new EventTarget();
  const mock = installMockWallet(window, { rpcUrl: nodeUrl, accounts: [WALLET], chainId: 31337 });
  const wallet = createWalletService({
    window,
    chain: {
      id: 31337,
      name: 'Hardhat',
      rpcUrl: nodeUrl,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    },
  });
  /** The receipts asked for, each found at once. */
  const confirms: ConfirmTransferRequest[] = [];
  // The wallet's own steps run for real; the private-key steps and the history are never reached.
  const h = machineHarness(sendMachine, {
    input: { tokenConfigured: true },
    actors: {
      'walletSend.prepareWalletTransfer': fromPromise(() => Promise.resolve({ prepared, call })),
      'walletSend.requestWalletTransfer': fromPromise(({ input }) => wallet.sendTransaction(input)),
      'walletSend.confirmTransfer': fromPromise<TransferResult, ConfirmTransferRequest>(({ input }) => {
        confirms.push(input);
        return Promise.resolve(result);
      }),
    },
  });
  const { actor, toasts } = h;
  actor.send({ type: 'wallet.changed', address: WALLET, chainId: 31337 });
  const ready = () => waitFor(actor, (snapshot) => snapshot.matches('editing'));
  return { actor, mock, wallet, toasts, confirms, ready };
}

const busyFailure = {
  title: sendCopy.transferFailed,
  description: walletCopy.switchPending,
  variant: 'destructive',
};

describe('Send with wallet: a busy wallet sends nothing', () => {
  it('answering -32002 to eth_sendTransaction: Transfer Failed saying why, the form kept, and the next press asks the wallet again', async () => {
    const h = setup();
    h.mock.rejectNextOf(
      'eth_sendTransaction',
      -32002,
      'Request of type eth_sendTransaction already pending for origin http://127.0.0.1:5173.',
    );
    h.actor.send(withWallet);
    await h.ready();

    expect(h.toasts).toEqual([sendCopy.walletPrompt, busyFailure]);
    expect(h.mock.requests.filter((method) => method === 'eth_sendTransaction')).toHaveLength(1);
    expect(broadcasts).toEqual([]);
    expect(h.confirms).toEqual([]);
    expect(h.actor.getSnapshot().context).toMatchObject({
      recipient: RECIPIENT,
      amount: '12.5',
      unresolved: null,
    });

    // Not 'may have been sent': the same form goes straight to the wallet again, which sends it.
    h.actor.send(withWallet);
    await h.ready();
    expect(h.confirms).toEqual([{ hash: HASH, serialized: null }]);
    expect(broadcasts).toHaveLength(1);
    expect(h.toasts.at(-1)?.title).toBe(sendCopy.transferSubmitted);
    expect(h.toasts.map((toast) => toast.title)).not.toContain(sendCopy.mayHaveBeenSent);
  });

  it('while another prompt of the portal is open: the wallet is not asked at all', async () => {
    const h = setup();
    // A signature the user has not answered yet holds the wallet's one prompt.
    const release = h.mock.holdNext();
    const signing = h.wallet.signMessage(WALLET, 'Sign in to the DDEX Token Portal');
    h.actor.send(withWallet);
    await h.ready();

    expect(h.toasts).toEqual([sendCopy.walletPrompt, busyFailure]);
    expect(h.mock.requests).not.toContain('eth_sendTransaction');
    expect(broadcasts).toEqual([]);
    expect(h.actor.getSnapshot().context.unresolved).toBeNull();
    release();
    await signing.catch(() => undefined);
  });
});
