import type { Page } from 'playwright-core';

/** A Realtime frame that accepts the join of a user_notifications channel (not a heartbeat's or a leave's reply). */
export function isFeedJoinReply(message: string | Buffer): boolean {
  const text = typeof message === 'string' ? message : message.toString('utf8');
  // A leave's reply is an 'ok' on the same topic too; only a join's carries the bindings it accepted.
  return (
    text.includes('phx_reply') &&
    text.includes('"status":"ok"') &&
    text.includes('realtime:user_notifications') &&
    text.includes('"postgres_changes":[{')
  );
}

/**
 * Resolves once the page's live notifications feed has joined: the realtime server's ok reply to
 * the join of a user_notifications channel. Call it before the page signs in. A row inserted
 * before the join reaches the list on its next read, but never arrives as a toast; the signed-in
 * header alone does not say the feed is up.
 */
export function feedJoined(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        if (isFeedJoinReply(payload)) resolve();
      });
    });
  });
}
