import { Network, RpcNodeType, TatumSDK, type Ethereum } from '@tatumio/tatum';

// The unmodified Tatum SDK pointed at the local stack: REST through its
// TATUM_URL override (the emulator), RPC through `rpc.nodes` (the chain), so
// it never asks the internet for a node list. It holds the key the emulator
// requires, as the Edge Functions do; the browser never has it.
export async function localTatum(tatumApiUrl: string, rpcUrl: string, apiKey: string): Promise<Ethereum> {
  process.env['TATUM_URL'] = tatumApiUrl;
  return TatumSDK.init<Ethereum>({
    network: Network.ETHEREUM_SEPOLIA,
    apiKey,
    rpc: { nodes: [{ url: rpcUrl, type: RpcNodeType.NORMAL }] },
    quiet: true,
  });
}
