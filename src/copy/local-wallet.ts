// The local test wallet's own words (src/machines/local-wallet, src/ui/local-wallet), which load
// with it; the offer's words, which the first screen shows, are local-wallet-offer.ts.

export const localWalletCopy = {
  dialogTitle: 'Local test wallet',
  askConnect: 'Connect to the DDEX Token Portal?',
  askSign: 'Sign this message?',
  askTransaction: 'Send this transaction?',
  to: 'To',
  contractCreation: 'A new contract',
  value: 'Value',
  data: 'Data',
  approve: 'Approve',
  reject: 'Reject',
  menu: 'Local wallet',
  revealKey: 'Reveal key',
  hideKey: 'Hide key',
  keyWarning:
    'This key controls the local test wallet. It is for the local chain only: never send real funds to it.',
  replace: 'Replace wallet',
  replaceQuestion:
    'Replace the local test wallet? Its key is deleted from this browser and a new, funded wallet takes its place.',
  replaceConfirm: 'Replace',
  cancel: 'Cancel',
  replaceFailed: 'The local test wallet could not be replaced',
} as const;
