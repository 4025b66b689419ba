import type { Page } from 'playwright-core';

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
        const text = typeof payload === 'string' ? payload : payload.toString('utf8');
        if (
          text.includes('phx_reply') &&
          text.includes('"status":"ok"') &&
          text.includes('realtime:user_notifications')
        )
          resolve();
      });
    });
  });
}
