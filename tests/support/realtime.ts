import type { RealtimeChannel } from '@supabase/supabase-js';

/** Subscribes a supabase-js channel and resolves once the server confirms it, or fails clearly. */
export function subscribed(channel: RealtimeChannel, timeoutMs = 5_000): Promise<RealtimeChannel> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('channel did not reach SUBSCRIBED')), timeoutMs);
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') {
        clearTimeout(timer);
        resolve(channel);
      } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
        clearTimeout(timer);
        reject(new Error(`subscribe failed: ${status} ${error?.message ?? ''}`));
      }
    });
  });
}
