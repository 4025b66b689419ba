// What the local test wallet asks the person before it acts (src/services/local-wallet, the
// local wallet's chart and dialog), in values the event journal can hold: no bigint (the value
// is exact ETH text).

export type LocalWalletRequest =
  | { kind: 'connect' }
  | { kind: 'sign'; message: string }
  | { kind: 'transaction'; to: string | null; valueEth: string; data: string | null };

export type LocalWalletAsk = { id: number; request: LocalWalletRequest };
