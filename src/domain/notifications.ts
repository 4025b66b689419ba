import type { Database } from './database.types.ts';

export type NotificationRow = Database['public']['Tables']['user_notifications']['Row'];

/** A change to one of the user's notifications, as the live feed reports it. */
export type NotificationChange = {
  eventType: 'INSERT' | 'UPDATE' | 'DELETE';
  /** The new row, or for DELETE the old one (the table has full replica identity). */
  row: NotificationRow;
};

/** Realtime's channel states as supabase-js reports them to `subscribe`. */
export type SubscriptionStatus = 'SUBSCRIBED' | 'CHANNEL_ERROR' | 'TIMED_OUT' | 'CLOSED';
