import { authCopy } from '../../../copy/index.ts';
import { dialogCopy } from '../../../copy/dialogs.ts';
import { Dialog } from '../../common/Dialog.tsx';
import { useChild, useChildSelector, usePortalSelector } from '../../portal-context.tsx';
import { AuthForm } from './AuthForm.tsx';
import { CheckEmail } from './CheckEmail.tsx';
import { ForgotPassword, ResetSent } from './ForgotPassword.tsx';
import { NewPassword } from './NewPassword.tsx';

// The login / sign-up dialog: the auth machine's `modal` region (closed | login |
// signup | checkEmail | forgot | resetSent | recovery), with the wallet sign-in in either form.
// Closing it (X, backdrop, Escape) sends `auth.close`, which clears the fields; the form's inputs
// unmount with the dialog, so it reopens empty. The recovery form closes by its X only: the link
// that opened it works once, so a stray Escape or click beside it must not lose it.

const VIEWS = ['login', 'signup', 'checkEmail', 'forgot', 'resetSent', 'recovery'] as const;
type View = 'closed' | (typeof VIEWS)[number];

const titles = {
  closed: authCopy.titleLogin,
  login: authCopy.titleLogin,
  signup: authCopy.titleSignUp,
  checkEmail: authCopy.confirmTitle,
  forgot: authCopy.titleForgot,
  resetSent: authCopy.titleForgot,
  recovery: authCopy.titleRecovery,
} as const satisfies Record<View, string>;

export function AuthDialog() {
  const auth = useChild('auth');
  const view = useChildSelector(
    'auth',
    (snapshot): View => VIEWS.find((name) => snapshot.matches({ modal: name })) ?? 'closed',
  );
  const submitting = useChildSelector(
    'auth',
    (snapshot) =>
      snapshot.matches({ modal: { login: 'submitting' } }) ||
      snapshot.matches({ modal: { signup: 'submitting' } }) ||
      snapshot.matches({ modal: { forgot: 'sending' } }) ||
      snapshot.matches({ modal: { recovery: 'saving' } }),
  );
  const walletBusy = useChildSelector(
    'auth',
    (snapshot) =>
      snapshot.matches({ modal: { login: 'walletSignIn' } }) ||
      snapshot.matches({ modal: { signup: 'walletSignIn' } }),
  );
  const email = useChildSelector('auth', (snapshot) => snapshot.context.email);
  const walletAddress = usePortalSelector((snapshot) => snapshot.context.walletAddress);

  return (
    <Dialog
      open={view !== 'closed'}
      onClose={() => auth.send({ type: 'auth.close' })}
      dismissible={view !== 'recovery'}
      title={titles[view]}
      description={view === 'checkEmail' ? dialogCopy.auth.confirmSent(email) : undefined}
    >
      {view === 'checkEmail' ? (
        <CheckEmail onOk={() => auth.send({ type: 'auth.confirmOk' })} />
      ) : view === 'forgot' ? (
        <ForgotPassword
          email={email}
          sending={submitting}
          onSend={(address) => auth.send({ type: 'auth.requestReset', email: address })}
          onBack={() => auth.send({ type: 'auth.backToLogin' })}
        />
      ) : view === 'resetSent' ? (
        <ResetSent email={email} onOk={() => auth.send({ type: 'auth.confirmOk' })} />
      ) : view === 'recovery' ? (
        <NewPassword
          saving={submitting}
          onSave={(passwords) => auth.send({ type: 'auth.setPassword', ...passwords })}
        />
      ) : (
        <AuthForm
          mode={view === 'signup' ? 'signup' : 'login'}
          email={email}
          submitting={submitting}
          walletBusy={walletBusy}
          walletAddress={walletAddress}
          onSubmit={(credentials) => auth.send({ type: 'auth.submit', ...credentials })}
          onToggle={() => auth.send({ type: 'auth.toggleMode' })}
          onWalletSignIn={() =>
            walletAddress && auth.send({ type: 'auth.signInWithWallet', address: walletAddress })
          }
          onForgotPassword={(address) => auth.send({ type: 'auth.forgotPassword', email: address })}
        />
      )}
    </Dialog>
  );
}
