import { describe, expect, it } from 'vitest';
import { readEmailLink } from '../../src/app/email-link.ts';

// What an emailed auth link leaves in the address when GoTrue's /verify sends the browser on to the
// portal (the implicit flow): a session in the fragment, or why there is none. The boot takes
// either out of the address before anything else reads it (src/main.tsx).

const SITE = 'http://127.0.0.1:5173/';

describe('readEmailLink', () => {
  it("takes a recovery link's session out of the fragment, and gives the address without it", () => {
    const href = `${SITE}#access_token=aaa.bbb.ccc&expires_at=1790000000&expires_in=3600&refresh_token=rrr&token_type=bearer&type=recovery`;
    expect(readEmailLink(href)).toEqual({
      link: {
        kind: 'session',
        session: { type: 'recovery', accessToken: 'aaa.bbb.ccc', refreshToken: 'rrr' },
      },
      rest: SITE,
    });
  });

  it('keeps the path and query, and a link without a type is still a session', () => {
    const { link, rest } = readEmailLink(`${SITE}faq?x=1#access_token=a&refresh_token=r`) ?? {};
    expect(link).toEqual({ kind: 'session', session: { type: null, accessToken: 'a', refreshToken: 'r' } });
    expect(rest).toBe(`${SITE}faq?x=1`);
  });

  it("reads a used or expired link as a failure, with the backend's code", () => {
    const href = `${SITE}#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired`;
    expect(readEmailLink(href)).toEqual({ link: { kind: 'failed', code: 'otp_expired' }, rest: SITE });
  });

  it('leaves any other address alone', () => {
    for (const href of [SITE, `${SITE}#faq`, `${SITE}#access_token=only-half`, `${SITE}?unsubscribe=t`])
      expect(readEmailLink(href)).toBeNull();
  });
});
