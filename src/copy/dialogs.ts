import { shortAddress, unsubscribeCopy } from './index.ts';

// The dialogs' words, apart from index.ts: only the dialogs (and the lazy tabs) show them, and
// they load with their code rather than with the entry (vite.config.ts keeps a file named
// dialogs* out of the entry's chunk).

/**
 * ours: the dialogs' words the spec does not quote (the titles of docs/product.md#dialogs, labels,
 * list states).
 */
export const dialogCopy = {
  auth: {
    email: 'Email',
    password: 'Password',
    loggingIn: 'Logging In...',
    signingUp: 'Creating Account...',
    toSignUp: "Don't have an account?",
    toLogin: 'Already have an account?',
    confirmSent: (email: string) =>
      `We sent a confirmation link to ${email}. Follow it to activate your account.`,
    or: 'or',
    walletSigningIn: 'Waiting for your wallet...',
    walletHint: (address: string) =>
      `Signs a message with ${shortAddress(address)}; it costs nothing and sends no transaction.`,
    noWalletHint: 'Connect a wallet first to continue with it.',
    forgotHint: 'Enter the email you signed up with, and we will mail you a link to choose a new password.',
    sendLink: 'Send Reset Link',
    sendingLink: 'Sending...',
    backToLogin: 'Back to login',
    resetSent: (email: string) =>
      `If an account exists for ${email}, we sent it a link to choose a new password. The link works once, within an hour.`,
    recoveryHint:
      'You followed a password reset link, so you are logged in. Choose the password you will log in with from now on.',
    newPassword: 'New password',
    repeatPassword: 'New password again',
    savePassword: 'Save Password',
    savingPassword: 'Saving...',
  },
  profile: {
    title: 'Edit Profile',
    avatarAlt: 'Your avatar',
    noAvatar: 'No avatar yet',
    chooseAvatar: 'Avatar image',
    avatarHint: 'PNG, JPEG or GIF, at most 2 MB. It is kept once you save your profile.',
    uploading: 'Uploading...',
    newAvatar: 'New avatar, not saved yet',
    username: 'Username',
    fullName: 'Full Name',
    website: 'Website',
    websiteHint: 'An address starting with http:// or https://',
    save: 'Save',
    saving: 'Saving...',
    loading: 'Loading your profile...',
    unavailable: 'Your profile could not be loaded. Try again later.',
    wallet: 'Wallet',
    walletVerified: 'verified',
    walletNotVerified: 'not verified',
    /** While a wallet proof runs; saving and the avatar wait for it. */
    walletProving: 'Waiting for your wallet to sign the link. Saving waits until it has.',
    notificationsTitle: 'Notifications',
    notificationsHint:
      'Every notification appears here in the portal. Choose which ones also reach your inbox.',
    emailTransfers: 'Email me about incoming transfers',
    emailBots: 'Email me when one of my bots fires',
    /** A wallet-only account (Sign in with Ethereum) has no address to mail. */
    noEmail:
      'You signed in with a wallet, so your account has no email address: notifications appear only in the portal.',
    savingAlerts: 'Saving your choice...',
  },
  unsubscribe: {
    title: 'Stop Email Alerts',
    question: (kind: 'transfers' | 'bots' | null) =>
      `Stop emailing you ${unsubscribeCopy.emailsAbout(kind)}? You will still see them in the portal.`,
    stop: 'Stop Emails',
    stopping: 'Stopping...',
    keep: 'Keep Them',
  },
  notifications: {
    title: 'Notifications',
    loading: 'Loading notifications...',
    empty: 'You have no notifications.',
    unread: 'Unread',
    markRead: 'Mark as read',
    clearAll: 'Clear All',
    clearing: 'Clearing...',
  },
  transactions: {
    title: 'Transaction History',
    loading: 'Loading transactions...',
    error: 'Your transactions could not be loaded.',
    retry: 'Try Again',
    empty: 'No transactions yet.',
    hash: 'Hash',
    noHash: 'No hash',
    openInExplorer: '(opens the block explorer in a new tab)',
  },
  apiKeys: {
    title: 'API Key Management',
    body: 'API key management is under construction. You will be able to create and revoke keys for the trading API here.',
  },
  security: {
    title: 'Security Settings',
    body: 'Security settings are under construction.',
    twoFactor: 'Two-factor authentication',
    twoFactorHint: 'A second step when you log in.',
  },
} as const;
