import type { Page } from 'playwright-core';
import { routeChannelFeed, type ChannelFeedRoute } from './channel-feed.ts';

// The notifications feed's channel, held as channel-feed.ts holds any: the server's answer to the
// feed's join waits until a step lets it go (SUBSCRIBED), every change the server pushes waits
// until a step delivers it (notifications.changed), and a step can cut the socket as a stopped
// server does (CHANNEL_ERROR).

export type { PushedChange } from './channel-feed.ts';
export type NotificationFeedRoute = ChannelFeedRoute;

/** Routes the page's Realtime socket; reload the page before it signs in (channel-feed.ts). */
export const routeNotificationFeed = (page: Page): Promise<NotificationFeedRoute> =>
  routeChannelFeed(page, 'realtime:user_notifications');
