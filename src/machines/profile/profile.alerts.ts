import { assertEvent, assign } from 'xstate';
import { profileCopy } from '../../copy/index.ts';
import { withEmailAlerts } from '../../domain/email-alerts.ts';
import { failed } from './profile-toasts.ts';
import { profileSetup } from './profile.setup.ts';

// The profile machine's email alerts (docs/product.md#email-alerts): the Notifications section's
// choices, saved to the profile's notification_preferences as soon as they change. Only the email
// keys are written; whatever else the preferences hold is kept. The server mails an opted-in
// notification to the account's address, so a wallet-only account (no email) is refused here.

export const savingEmailAlertsState = profileSetup.createStateConfig({
  invoke: {
    id: 'saveEmailAlerts',
    src: 'upsertProfile',
    input: ({ context, event }) => {
      assertEvent(event, 'profile.setEmailAlerts');
      return {
        id: context.user.id,
        notification_preferences: withEmailAlerts(context.profile?.notification_preferences, event.alerts),
      };
    },
    onDone: {
      target: 'settling',
      actions: [
        assign({ profile: ({ event }) => event.output }),
        { type: 'showToast', params: profileCopy.emailAlertsSaved },
      ],
    },
    // The section shows the saved choices again: nothing changed.
    onError: { target: 'settling', actions: failed(profileCopy.emailAlertsFailed) },
  },
});
