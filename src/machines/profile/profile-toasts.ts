// The profile machine's destructive toasts: a refusal's words, and a failed request's (its title
// with the service's words). Shared by the chart (profile.machine.ts) and its states.

export const destructive = (title: string, description: string) =>
  ({ title, description, variant: 'destructive' }) as const;

/** Every failure's toast here: its title, and the service's words or the generic fallback. */
export { failedToast as failed } from '../shared.ts';
