import type { AuthChange, AuthUser } from '../../domain/auth.ts';

// The auth machine's shapes (auth.machine.ts): its input, context, events, the facts it reports
// and the wallet sign-in's input. The setup, the regions and the forms all build on these.

export type AuthMode = 'login' | 'signup';
export type AuthInput = {
  clientAvailable: boolean;
  /**
   * The page was opened from an emailed link that was used or had expired: the boot found the
   * backend's `#error=…` in the address (src/app/email-link.ts) and took it out.
   */
  emailLinkFailed?: boolean;
};

export type AuthContext = {
  clientAvailable: boolean;
  user: AuthUser | null;
  /** What the form holds; the check-your-email state shows `email`. */
  email: string;
  /** Only while the form is open; cleared when a submit ends and on close. */
  password: string;
  /** The stored session was dropped (SIGNED_OUT) while it was being read: it had expired for good. */
  sessionLost: boolean;
  /** The input's failed email link, until the dialog has said so. */
  emailLinkFailed: boolean;
};

/** The facts this machine reports to the root (README protocol). */
export type AuthFact =
  | { type: 'auth.ready'; user: AuthUser | null }
  | { type: 'auth.signedIn'; user: AuthUser }
  | { type: 'auth.signedOut' }
  | { type: 'auth.userUpdated'; user: AuthUser };

/** What the password recovery requests take. */
export type PasswordResetInput = { email: string };
export type NewPasswordInput = { password: string };

/** What the wallet sign-in needs from the machine: the connected address and the message's plain line. */
export type WalletSignInInput = { address: string; statement: string };

export type AuthEvent =
  /**
   * From the `authChanges` actor; `expected` when this machine raises the change a request of its own
   * implies (a logout), so only a session that ends unasked is announced.
   */
  | { type: 'auth.change'; change: AuthChange; expected?: boolean }
  | { type: 'auth.open'; mode: AuthMode }
  | { type: 'auth.toggleMode' }
  | { type: 'auth.close' }
  | { type: 'auth.edit'; email?: string; password?: string }
  | { type: 'auth.submit'; email: string; password: string }
  /** Sign in with the connected wallet (the view offers it only while one is connected). */
  | { type: 'auth.signInWithWallet'; address: string }
  | { type: 'auth.confirmOk' }
  | { type: 'auth.signOut' }
  /** From the login form: the forgotten-password form, with the email typed so far. */
  | { type: 'auth.forgotPassword'; email: string }
  | { type: 'auth.requestReset'; email: string }
  | { type: 'auth.backToLogin' }
  /** The recovery form's new password, typed twice. */
  | { type: 'auth.setPassword'; password: string; repeatedPassword: string };
