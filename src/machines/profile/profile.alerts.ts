import { assertEvent, assign } from 'xstate';
import { profileCopy } from '../../copy/index.ts';
import { failed } from './profile-toasts.ts';
import { profileSetup } from './profile.setup.ts';

// The profile machine's email alerts (docs/product.md#email-alerts): a Notifications section's
// choice, saved as soon as it changes. Only that one kind is sent; the database sets it on the
// profile as it holds it (set_email_alert) and answers the preferences as they now stand, so a kind
// turned off elsewhere (an alert mail's unsubscribe link) is shown off, never written back on. The
// server mails an opted-in notification to the account's address, so a wallet-only account (no
// email) is refused before this state.

export const savingEmailAlertState = profileSetup.createStateConfig({
  invoke: {
    id: 'saveEmailAlert',
    src: 'setEmailAlert',
    input: ({ event }) => {
      assertEvent(event, 'profile.setEmailAlert');
      return { kind: event.kind, on: event.on };
    },
    onDone: {
      target: 'settling',
      actions: [
        assign({
          profile: ({ context, event }) =>
            context.profile && { ...context.profile, notification_preferences: event.output },
        }),
        { type: 'showToast', params: profileCopy.emailAlertsSaved },
      ],
    },
    // The section shows the saved choices again: nothing changed.
    onError: { target: 'settling', actions: failed(profileCopy.emailAlertsFailed) },
  },
});
