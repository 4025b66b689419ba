// The portal's own addresses, as the functions name them in what they send people to: SITE_URL,
// which may list several origins, comma-separated (link-wallet reads them all); the first is the
// portal's. Plain code: it runs under Deno and under Node alike.

/** The portal's origin: the first of SITE_URL's, without a trailing slash. */
export function portalOrigin(siteUrl: string): string {
  const first = siteUrl.split(',')[0]?.trim() ?? '';
  return first.replace(/\/+$/, '');
}

/** The page of the portal that turns a kind of email off for the token's user, after asking. */
export function unsubscribeLink(siteUrl: string, token: string): string {
  return `${portalOrigin(siteUrl)}/?unsubscribe=${encodeURIComponent(token)}`;
}
