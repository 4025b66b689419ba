import styled from 'styled-components';
import { dialogCopy } from '../../../copy/dialogs.ts';
import { EMAIL_ALERT_KINDS, emailAlertsOf, type EmailAlertKind } from '../../../domain/email-alerts.ts';
import { useProfile, useSessionChild, useSessionSelector } from '../../portal-context.tsx';
import { theme } from '../../theme.ts';

// The profile's Notifications section (docs/product.md#email-alerts): every notification appears in
// the portal; each kind may also be mailed. A choice is saved as soon as it changes, and the boxes
// show what the profile holds, so a failed save shows the old choice again and a saved one shows
// the preferences as the database answered them. A wallet-only account
// has no address to mail, and is told so instead.

const labels: Record<EmailAlertKind, string> = {
  transfers: dialogCopy.profile.emailTransfers,
  bots: dialogCopy.profile.emailBots,
};

export function ProfileNotifications() {
  const profile = useSessionChild('profile');
  const preferences = useProfile()?.notification_preferences;
  const hasEmail = useSessionSelector('profile', (snapshot) => !!snapshot.context.user.email, false);
  // A choice is taken only while the profile is idle; otherwise the boxes say they are busy and
  // keep their place in the tab order (aria-disabled, not disabled, as the portal's buttons do).
  const busy = useSessionSelector('profile', (snapshot) => !snapshot.matches('ready'), true);
  const saving = useSessionSelector('profile', (snapshot) => snapshot.matches('savingEmailAlert'), false);
  const alerts = emailAlertsOf(preferences);
  return (
    <Section aria-labelledby="profile-notifications" aria-busy={busy}>
      <Heading id="profile-notifications">{dialogCopy.profile.notificationsTitle}</Heading>
      <Hint>{hasEmail ? dialogCopy.profile.notificationsHint : dialogCopy.profile.noEmail}</Hint>
      {hasEmail
        ? EMAIL_ALERT_KINDS.map((kind) => (
            <Choice key={kind}>
              <input
                type="checkbox"
                checked={alerts[kind]}
                aria-disabled={busy}
                onChange={(event) =>
                  profile?.send({ type: 'profile.setEmailAlert', kind, on: event.target.checked })
                }
              />
              {labels[kind]}
            </Choice>
          ))
        : null}
      <Hint role="status">{saving ? dialogCopy.profile.savingAlerts : null}</Hint>
    </Section>
  );
}

const Section = styled.section`
  margin-top: ${theme.space(4)};
  padding-top: ${theme.space(4)};
  border-top: 1px solid ${theme.color.border};
`;

const Heading = styled.h3`
  margin: 0 0 ${theme.space(2)};
  font-size: 1rem;
`;

const Hint = styled.p`
  margin: 0 0 ${theme.space(2)};
  color: ${theme.color.textMuted};
  font-size: 0.875rem;
`;

const Choice = styled.label`
  display: flex;
  align-items: center;
  gap: ${theme.space(2)};
  margin: ${theme.space(2)} 0;
  cursor: pointer;
`;
