import type { WalletProofRefusalCode } from '../domain/errors.ts';
import { AVATAR_TYPES } from '../domain/profile.ts';

// The portal's words. Every string the product shows lives here exactly once
// (docs/product.md); machines, views and tests import it (services speak in
// codes, which src/machines/error-words.ts words), so a wording change is one
// edit and a test cannot drift from the product.
//
// Grouped by area, as docs/product.md lists them (its #errors section is the
// toast catalogue). Strings the spec does not quote are marked "ours". A toast is a
// title with an optional description; functions build the descriptions the
// spec fills with a value.

/** A headed section of plain text on a prose page (the FAQ, the Privacy Policy, the Terms of Service). */
export type ProseSection = { heading: string; paragraphs: readonly string[] };

/** 6 leading and 4 trailing characters (docs/product.md#constants). */
export function shortAddress(address: string): string {
  return address.length <= 10 ? address : `${address.slice(0, 6)}...${address.slice(-4)}`;
}

export const appCopy = {
  heading: 'DDEX Token Portal',
  pageNotFound: 'Page not found.',
  visitorPrompt: 'Please login or connect your wallet to continue.',
  /** The last fallback of the display name (docs/product.md#display-name). */
  displayNameFallback: 'User',
  tabs: { portal: 'Token Portal', trading: 'DEX Trading', bots: 'Trading Bots' },
  menu: {
    profile: 'Profile',
    transactions: 'Transactions',
    bots: 'Trading Bots',
    faq: 'FAQ',
    privacy: 'Privacy Policy',
    terms: 'Terms of Service',
    apiKeys: 'API Keys',
    security: 'Security',
    soon: 'Soon',
    about: 'About',
    logOut: 'Log out',
  },
  loading: {
    trading: 'Loading Trading Interface...',
    bots: 'Loading Trading Bots...',
    faq: 'Loading FAQ...',
    privacy: 'Loading Privacy Policy...',
    terms: 'Loading Terms of Service...',
  },
  welcome: {
    /** ours: the spec gives the welcome toast's duration, not its words. */
    title: 'Welcome to DDEX!',
    description: 'Log in or connect your wallet to get started.',
  },
} as const;

export const authCopy = {
  login: 'Login',
  signUp: 'Sign Up',
  logout: 'Logout',
  titleLogin: 'Welcome Back',
  titleSignUp: 'Create Account',
  confirmTitle: 'Confirm Your Email',
  confirmSpamHint: 'If you do not see it, check your spam folder.',
  confirmOk: "Okay, I'll Check",
  clientUnavailable: { title: 'Error', description: 'Supabase client not available. Please try again.' },
  loginFailed: 'Login Failed',
  signupFailed: 'Signup Failed',
  unexpectedError: 'An unexpected error occurred.',
  confirmationSent: {
    title: 'Confirmation Email Sent!',
    description: 'Please check your email to confirm your account.',
  },
  signupSuccess: { title: 'Signup Successful!', description: 'Welcome to DDEX!' },
  loginSuccess: { title: 'Login Successful!', description: 'Welcome back to DDEX!' },
  initError: { title: 'Initialization Error', description: 'Supabase client not ready. Please refresh.' },
  sessionError: { title: 'Session Error', description: 'Could not retrieve current session.' },
  loggedOut: { title: 'Logged Out', description: 'You have been logged out.' },
  logoutFailed: 'Logout Failed',
  /** ours: the session ended without a logout here (it expired for good, or ended in another tab). */
  sessionEnded: {
    title: 'Session Ended',
    description: 'Your session has expired or was ended elsewhere. Please log in again.',
  },
  /**
   * ours: both fields are required (docs/product.md#email-and-password); the product quotes no
   * message for it (a browser's `required` speaks first).
   */
  credentialsRequired: { title: 'Missing Information', description: 'Please enter your email and password.' },
  /** ours: Sign in with Ethereum, the auth dialog's third way in (docs/product.md#auth-dialog). */
  continueWithWallet: 'Continue with wallet',
  /** The line above the fields of the message the wallet signs to sign in; no line breaks. */
  walletSignInStatement:
    'Sign in to the DDEX Token Portal with this wallet. Signing costs nothing and sends no transaction.',
  walletSignInFailed: 'Wallet Sign-In Failed',
  walletSignInDeclined: 'You declined the signature request, so you were not signed in.',
  /**
   * ours: a forgotten password (docs/product.md#password-recovery). What the portal answers never
   * says whether an address has an account.
   */
  forgotPassword: 'Forgot password?',
  titleForgot: 'Reset Your Password',
  titleRecovery: 'Choose a New Password',
  emailRequired: { title: 'Missing Information', description: 'Please enter your email address.' },
  resetSent: {
    title: 'Check Your Email',
    description: 'If an account exists for that address, a link to reset its password is on its way.',
  },
  resetFailed: 'Password Reset Failed',
  /**
   * ours: an emailed link (a password reset, a sign-up confirmation) opened after it was used or
   * had expired; the backend does not say which kind it was, and the forgotten-password form opens.
   */
  linkFailed: {
    title: 'Email Link Failed',
    description:
      'This email link is invalid or has expired: each link works once, within an hour. Ask for a new one here.',
  },
  newPasswordsRequired: {
    title: 'Missing Information',
    description: 'Please enter your new password twice.',
  },
  passwordsDiffer: {
    title: 'Passwords Do Not Match',
    description: 'Please enter the same new password twice.',
  },
  passwordUpdated: {
    title: 'Password Updated',
    description: 'Your new password is set, and you are logged in.',
  },
  passwordUpdateFailed: 'Password Update Failed',
} as const;

export const walletCopy = {
  connectWallet: 'Connect Wallet',
  connectingWallet: 'Connecting Wallet...',
  connectYourWallet: 'Connect Your Wallet',
  connecting: 'Connecting...',
  notInstalled: 'MetaMask is not installed. Please install the MetaMask browser extension.',
  nonceAhead:
    "Nothing was sent: your wallet is ahead of this chain (it was restarted). Clear the wallet's activity for this network, then try again (MetaMask: Settings, Advanced, Clear activity tab data).",
  denied: 'Connection denied. Please approve the connection request in MetaMask.',
  pending: 'Connection request already pending. Please check MetaMask.',
  connectionFailed: 'Wallet Connection Failed',
  connectFallback: 'Failed to connect wallet. An unexpected error occurred.',
  connected: 'Wallet Connected!',
  connectedDescription: (address: string) => `Connected to ${shortAddress(address)}`,
  loginRecommended: {
    title: 'Login Recommended',
    description: 'Log in to save your transactions and link this wallet to your profile.',
  },
  disconnected: { title: 'Wallet Disconnected', description: 'Your wallet has been disconnected.' },
  copied: { title: 'Copied!', description: 'Wallet address copied to clipboard' },
  copyFailed: { title: 'Copy Failed', description: 'Could not copy address.' },
  /** ours: beyond the spec, the wrong-network state and its switch. */
  wrongNetwork: (expected: string) => `Your wallet is on another network. Switch to ${expected} to continue.`,
  switchNetwork: 'Switch Network',
  switchFailed: 'Network Switch Failed',
  accountChanged: 'Wallet Account Changed',
  /** ours: the wallet service's messages for answers it cannot use (shown under 'Wallet Connection Failed'). */
  noAccount: 'The wallet did not share any account.',
  invalidAnswer: 'The wallet gave an answer the portal cannot use.',
  /**
   * ours: descriptions under 'Network Switch Failed', worded like those under 'Wallet Connection
   * Failed' (docs/product.md#wallet-toasts).
   */
  switchRejected: 'Network switch denied. Please approve the switch request in MetaMask.',
  switchPending: 'A request is already pending. Please check MetaMask.',
  chainNotAdded: (name: string) => `MetaMask could not add ${name}. Please add it in MetaMask.`,
  switchFallback: 'Failed to switch network. An unexpected error occurred.',
  /**
   * ours: the wallet panel's request to list DDEX in the wallet (EIP-747) and the title of every
   * answer but a yes; the rest of its words load with the request (copy/watch-token.ts).
   */
  addToken: 'Add DDEX to wallet',
  tokenNotAdded: 'DDEX Not Added',
} as const;

/**
 * ours: proving a wallet before it is linked to the profile (docs/product.md#wallet-sync). A
 * failure's title is 'Wallet Not Linked', except a backend that could not be reached or failed,
 * which keeps the spec's 'Database Sync Error'.
 */
export const walletProofCopy = {
  /** The line above the fields of the message the wallet signs; no line breaks. */
  statement:
    'Link this wallet to your DDEX Token Portal profile. Signing proves you own it; it costs nothing and sends no transaction.',
  notLinked: 'Wallet Not Linked',
  declined: 'You declined the signature request, so the wallet was not linked. Connect it again to retry.',
  walletFailed: 'Your wallet could not sign the request. Connect it again to retry.',
  /** Why link-wallet refused a proof, by its code (WalletProofRefusalCode). */
  refused: {
    proof_expired: 'The signature expired before it was checked. Connect the wallet again to retry.',
    proof_replayed: 'The signature was already used. Connect the wallet again to retry.',
    wallet_taken: 'This wallet is already linked to another account.',
    too_many_nonces: 'You tried to link too many wallets in a short time. Try again in a few minutes.',
    proof_domain: 'The signature was made for another website, so it was refused.',
    proof_chain: 'The signature was made for another network, so it was refused.',
    proof_signature: 'The signature was not made by this wallet, so it was refused.',
    proof_nonce: 'The signature answers another request. Connect the wallet again to retry.',
    malformed: 'The signature could not be read. Connect the wallet again to retry.',
  } satisfies Record<WalletProofRefusalCode, string>,
} as const;

export const balanceCopy = {
  native: 'Native Balance (ETH)',
  token: 'DDEX Token Balance',
  loading: 'Loading...',
  empty: 'N/A',
  error: 'Error',
  configError: 'N/A (Config Error)',
  fetchError: 'Balance Fetch Error',
  walletNotConnected: { title: 'Wallet Not Connected', description: 'Please connect your wallet first.' },
  /** ours: the exact value of a balance copied, under the titles the address copy uses. */
  copied: { title: 'Copied!', description: 'Balance copied to clipboard' },
  copyFailed: { title: 'Copy Failed', description: 'Could not copy balance.' },
  /** ours: the copy button's name, after the balance's label. */
  copy: (label: string) => `Copy ${label}`,
} as const;

export const sendCopy = {
  recipient: 'Recipient Address',
  amount: 'Amount',
  privateKey: 'Sender Private Key',
  privateKeyWarning: 'Testnet only. Never share or expose your private keys.',
  submit: 'Send DDEX Tokens',
  submitting: 'Broadcasting Transaction...',
  visitorNote: 'Transactions made while not logged in are not saved to your history.',
  minimumAmount: '0.000000000000000001',
  walletNotConnected: { title: 'Wallet Not Connected', description: 'Please connect your wallet first.' },
  missingInformation: {
    title: 'Missing Information',
    description: 'Please enter recipient address and amount.',
  },
  privateKeyRequired: {
    title: 'Private Key Required',
    description: 'Please enter your private key to sign the transaction.',
  },
  configurationError: {
    title: 'Configuration Error',
    description: 'DDEX Token contract address is not set. Please contact support.',
  },
  transferSubmitted: 'Transfer Submitted',
  transferSubmittedDescription: (hash: string) => `Transaction hash: ${hash.slice(0, 10)}...`,
  /** ours: checks the spec leaves to "the remainder of the transfer logic". */
  invalidTransfer: 'Invalid Transfer',
  keyMismatch: 'This private key does not belong to the connected wallet.',
  transferFailed: 'Transfer Failed',
  historyNotSaved: 'Transfer not saved to history',
  /**
   * ours: the send machine's own outcomes after the checks (docs/product.md#send-steps); the key is
   * cleared whenever a send stops.
   */
  historyNotSavedDescription: (hash: string) =>
    `The transfer ${hash.slice(0, 10)}... was submitted, but it could not be added to your transaction history.`,
  /** ours: a signed-in user's transfers waiting for their history rows, tried again while the backend is down. */
  savingToHistory: 'Saving to history...',
  /** ours: signing out or switching accounts drops the rows still waiting (the call needs the session). */
  historyAbandonedDescription: (count: number) =>
    `You signed out before ${count === 1 ? 'a transfer was' : `${count} transfers were`} added to your transaction history.`,
  keyCleared: 'Your private key was cleared; enter it again to retry.',
  transferNotConfirmed: 'Transfer Not Confirmed',
  transferCancelled: 'Transfer Cancelled',
  cancelledWalletChanged:
    'Your wallet changed before the transfer was sent, so nothing was sent. Enter the private key again to send from this wallet.',
  cancelledSessionChanged:
    'You signed out or switched accounts before the transfer was sent, so nothing was sent.',
  /**
   * ours: sending with the connected wallet (docs/product.md#send-with-wallet), the checks made
   * before anything is signed, and a transfer that may have been sent (docs/product.md#send-steps).
   */
  sendWithWallet: 'Send with wallet',
  walletWaiting: 'Waiting for your wallet...',
  walletConfirming: 'Confirming transfer...',
  walletPrompt: {
    title: 'Confirm in Your Wallet',
    description:
      'Your wallet shows the transfer and its network fee. Approve it there, or reject it to send nothing.',
  },
  walletRejected: {
    title: 'Transfer Rejected',
    description: 'You rejected the transfer in your wallet, so nothing was sent.',
  },
  transferPending: 'Transfer Pending',
  transferPendingDescription: (hash: string) => `Transaction hash: ${hash}. Waiting for it to be mined.`,
  transactionHash: (hash: string) => `Transaction hash: ${hash}.`,
  walletWrongChain: 'Your wallet is on another network than the portal. Switch networks, then send again.',
  walletSendFailed: 'Your wallet could not send the transfer.',
  badChecksum:
    "The recipient's capital letters do not match its checksum (EIP-55): check the address for a typo.",
  belowMinimum: (minimum: string) => `The amount must be at least ${minimum} DDEX.`,
  mayHaveBeenSent: 'Transfer May Have Been Sent',
  mayHaveBeenSentDescription: (hash: string) =>
    `Transaction ${hash} may have reached the network, but its outcome could not be checked.`,
  checksInsteadOfResending:
    'Sending this same transfer again checks that transaction instead of sending a second one.',
  /**
   * ours: the wallet failed in a way that can come after it broadcast (docs/product.md#send-with-wallet),
   * and a nonce already used by another transaction (docs/reliability-and-security.md#sends).
   */
  walletMaybeSent:
    "Your wallet may have sent it before failing. Check your wallet's activity before sending it again.",
  walletMaybeSentAgain: {
    title: 'Transfer May Have Been Sent',
    description:
      "Your wallet may already have sent this transfer. Check your wallet's activity; press send again only if it is not there.",
  },
  replacedOnChain: (hash: string) =>
    `Transaction ${hash} was never mined: another transaction from your wallet took its place. Nothing was sent by it; you can send again.`,
} as const;

export const webhookCopy = {
  section: 'Tatum Webhooks (Demo)',
  create: 'Create Hook',
  list: 'List Hooks',
  deleteFirst: 'Delete First Hook',
  walletRequired: { title: 'Error', description: 'Connect wallet first to create a webhook' },
  creating: { title: 'Creating Webhook...', description: 'Registering with Tatum' },
  created: 'Webhook Created!',
  createdDescription: (id: string, address: string) => `ID: ${id}, monitoring ${address}`,
  creationFailed: 'Webhook Creation Failed',
  fetching: { title: 'Fetching Webhooks...' },
  active: 'Active Webhooks',
  activeDescription: (count: number) => `Found ${count} active webhook(s). Check the console for details.`,
  noneActive: { title: 'No Active Webhooks', description: 'No webhooks are currently active.' },
  listFailed: 'Failed to List Webhooks',
  deleting: { title: 'Deleting Webhook...' },
  deleted: 'Webhook Deleted',
  deletedDescription: (id: string) => `Webhook ${id} was deleted.`,
  noneToDelete: { title: 'No Webhooks to Delete' },
  deletionFailed: 'Webhook Deletion Failed',
  /** ours: a failure's description, the service's message and, when known, what the provider said. */
  failureDescription: (message: string, detail: string | null) =>
    detail ? `${message}: ${detail}` : message,
  /** ours: webhooks belong to a signed-in user now that the Tatum key stays on the server. */
  loginRequired: { title: 'Login Required', description: 'Please log in to manage your webhooks.' },
  /** ours: Create Hook watches only a wallet its user has proven (linked by signing). */
  walletUnverified: {
    title: 'Wallet Not Linked',
    description: 'Link this wallet to your profile (sign its proof) before creating a webhook for it.',
  },
} as const;

/** ours: an email alert's unsubscribe link (docs/product.md#email-alerts). */
export const unsubscribeCopy = {
  /** Which emails a kind is, as the link's dialog and its toast say it (null: a link naming none). */
  emailsAbout: (kind: 'transfers' | 'bots' | null) =>
    kind === 'bots'
      ? 'when your bots fire'
      : kind === 'transfers'
        ? 'about incoming transfers'
        : 'about these alerts',
  done: (kind: 'transfers' | 'bots' | null) => ({
    title: 'Email Alerts Off',
    description: `You will get no more emails ${unsubscribeCopy.emailsAbout(kind)}. Your profile's Notifications turn them back on.`,
  }),
  failed: 'Unsubscribe Failed',
} as const;

export const profileCopy = {
  /** ours: the profile's email alerts (docs/product.md#email-alerts). */
  emailAlertsSaved: {
    title: 'Notification Settings Saved',
    description: 'Your email alert choices are saved.',
  },
  emailAlertsFailed: 'Notification Settings Not Saved',
  emailAlertsNoEmail: {
    title: 'No Email Address',
    description: 'Your account has no email address, so its notifications appear only in the portal.',
  },
  fetchError: 'Profile Fetch Error',
  databaseSyncError: 'Database Sync Error',
  profileSyncError: 'Profile Sync Error',
  createdAndLinked: 'Profile Created & Wallet Linked',
  walletUpdated: 'Wallet Updated',
  updated: 'Profile Updated',
  updateFailed: 'Update Failed',
  avatarUploadFailed: 'Avatar Upload Failed',
  avatarUploaded: { title: 'Avatar Uploaded!', description: 'Save your profile to persist the new avatar.' },
  publicUrlFailed: 'Could not get public URL for avatar.',
  /** ours: descriptions for the spec's titles. */
  createdAndLinkedDescription: (address: string) => `Your profile now holds ${shortAddress(address)}.`,
  walletUpdatedDescription: (address: string | null) =>
    address
      ? `Your profile wallet is now ${shortAddress(address)}.`
      : 'Your profile no longer holds a wallet.',
  updatedDescription: 'Your profile has been saved.',
  avatarTypes: AVATAR_TYPES,
  avatarTypeRefused: 'The avatar must be a PNG, JPEG or GIF image.',
  avatarTooLarge: 'The avatar must be at most 2 MB.',
  websiteNotHttp: 'The website must be an http:// or https:// address.',
} as const;

export const notificationCopy = {
  fetchError: 'Error fetching notifications',
  markError: 'Error marking notifications as read',
  markOneError: 'Could not mark notification as read.',
  clearError: 'Error clearing notifications',
  cleared: { title: 'Notifications Cleared', description: 'All your notifications have been deleted.' },
  newFallbackTitle: 'New Notification',
  /** The first 50 characters of the message and '...' (docs/product.md#constants). */
  preview: (message: string) => `${message.slice(0, 50)}...`,
} as const;

export const transactionCopy = {
  fetchError: 'Error fetching transactions',
  loginRequired: { title: 'Login Required', description: 'Please log in to view transactions.' },
  /** The type with underscores shown as spaces (docs/product.md#history-dialog). */
  typeLabel: (type: string) => type.replaceAll('_', ' '),
  /** Hash preview of 10 characters (docs/product.md#constants). */
  hashPreview: (hash: string) => `${hash.slice(0, 10)}...`,
} as const;

export const footerCopy = {
  demo: 'This portal is a demonstration and uses testnet funds only.',
  /** ours: the labels of the footer's contact address and product-site link. */
  contact: 'Contact:',
  productSite: 'Product site',
} as const;

/** ours: the header's and the toast's words the spec does not quote (accessible names, the brand). */
export const shellCopy = {
  brand: 'DDEX',
  /** ours: a lazily loaded part (a tab, a dialog, the user menu) whose code could not be fetched. */
  partLoadFailed: 'This part of the portal could not be loaded. Check your connection and reload the page.',
  skipToContent: 'Skip to content',
  sections: 'Portal sections',
  themeToDark: 'Switch to dark theme',
  themeToLight: 'Switch to light theme',
  notifications: (unread: number) => (unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'),
  userMenu: (name: string) => `User menu for ${name}`,
  userMenuLabel: 'User menu',
  dismissToast: 'Dismiss',
} as const;

export const dataProviderCopy = {
  balanceUnknownError: 'Unknown error fetching balance',
  createWebhookFailed: 'Failed to create webhook via SDK',
  listWebhooksFailed: 'Failed to list webhooks',
  /** ours: the spec names no message for a failed unsubscribe. */
  deleteWebhookFailed: 'Failed to delete webhook via SDK',
  /** ours: the spec lists initialisation failures without quoting them. */
  initFailed: 'Could not start the blockchain data provider',
  /** ours: the native-balance function limits how often one client may ask. */
  rateLimited: (seconds: number | null) =>
    `Too many balance requests from this connection; try again in ${seconds ?? 60} seconds.`,
  /** ours: the native-balance function's project-wide ceiling, whoever asked. */
  busy: (seconds: number | null) => `The balance service is busy; try again in ${seconds ?? 60} seconds.`,
  /** ours: tatum-webhooks holds a few subscriptions per user (its 'webhook_limit'). */
  webhookLimit: 'You have as many webhooks as one account may hold; delete one before creating another.',
} as const;

const KNOWN_CHAINS: Record<number, string> = {
  1: 'Ethereum mainnet',
  11155111: 'Sepolia',
  17000: 'Holesky',
  31337: 'the local Hardhat chain',
};

/** ours: what the token service says when a read or a send fails. */
export const tokenCopy = {
  invalidPrivateKeyFormat: 'The private key must be 64 hexadecimal characters, optionally starting with 0x.',
  invalidPrivateKeyValue: 'This is not a valid private key.',
  invalidRecipient: 'The recipient must be an address: 0x followed by 40 hexadecimal characters.',
  zeroRecipient: 'Tokens cannot be sent to the zero address; they would be lost.',
  invalidAddress: 'This is not an address: expected 0x followed by 40 hexadecimal characters.',
  invalidAmount: 'Enter the amount as a positive decimal number, such as 12.5.',
  zeroAmount: 'The amount must be greater than zero.',
  tooManyDecimals: (decimals: number) =>
    decimals === 0
      ? 'This token has no decimal places; enter a whole number.'
      : `This token has ${decimals} decimal places; use at most ${decimals} digits after the decimal point.`,
  amountTooLarge: 'The amount is too large.',
  insufficientTokenBalance: 'The sending account does not hold enough tokens for this transfer.',
  insufficientTokenBalanceOf: (balance: string, needed: string) =>
    `The sending account holds ${balance} tokens, but the transfer needs ${needed}.`,
  insufficientFundsForGas:
    'The sending account does not have enough ETH to pay the network fee for this transfer.',
  wrongChain: (actual: number, expected: number) =>
    `The blockchain node is on ${chainName(actual)}, but the portal is set up for ${chainName(expected)}.`,
  chainMismatch: 'The blockchain node is on a different chain than the portal is set up for.',
  invalidReceiver: 'The token contract refuses this recipient.',
  refused: 'The token contract refused the transfer.',
  reverted: 'The transfer was mined but failed on chain; no tokens moved, and the network fee was spent.',
  notConfirmed: (seconds: number) =>
    `The transfer was sent but not confirmed within ${seconds} seconds. It may still go through: check its status before sending again.`,
  sentButUnchecked:
    'The transfer was sent, but its confirmation could not be checked; check its status before sending again.',
  rpcUnavailable: 'The blockchain node could not be reached. Check the connection and try again.',
  rpcUnavailableStatus: (status: number) =>
    `The blockchain node could not be used (HTTP ${status}). Try again later.`,
  noTokenContract: 'No token contract answers at the configured address on this network.',
  unknown: 'The blockchain request failed for an unexpected reason.',
} as const;

export function chainName(id: number): string {
  const known = KNOWN_CHAINS[id];
  return known ? `${known} (chain ${id})` : `chain ${id}`;
}

/** ours: the portal screen's words the spec does not quote (card titles, accessible names). */
export const portalCopy = {
  walletTitle: 'Wallet',
  loggedInAs: 'Logged in as',
  avatarAlt: (name: string) => `Avatar of ${name}`,
  connectedAddress: 'Connected address',
  fullAddress: (address: string) => `Wallet address ${address}`,
  copyAddress: 'Copy wallet address',
  disconnectWallet: 'Disconnect wallet',
  balancesTitle: 'Balances',
  refreshBalances: 'Refresh balances',
  refreshingBalances: 'Refreshing balances',
  sendTitle: 'Send Tokens',
  recipientPlaceholder: 'Ethereum address (0x...)',
  amountPlaceholder: '0.0',
  privateKeyPlaceholder: '0x...',
  testnetOnly: 'Testnet only',
  wrongNetworkTitle: 'Wrong network',
} as const;
