-- claim_email_alerts as 20261206000001 defines it, with two changes (docs/deploy.md#email-alerts).
-- Same signature, so its grants (service_role only) and the generated types stay.
--
-- - A claim moves the row's next attempt to its lease's end. A row whose drain stopped before it
--   finished the claim (the process was killed, or ran out of time) is then due again only when
--   the lease has run out, and queues behind the rows that were due before that, rather than
--   being taken first again, each time, with its old next_attempt_at. A finished claim sets the
--   next attempt itself (finish_email_alert), or the row is sent.
-- - A claim sends to the address the account has now (email_alert_recipient), not the one copied
--   when the mail was queued: a user who changed to another confirmed address gets the retries
--   there. A row without one is not claimed; the statement before discards it.
-- - discard_email_alert, new: ends a claim whose mail the mail server refused for good (a 5xx
--   reply to the recipient), so it is not retried for ever; the row keeps the reason.

create or replace function public.claim_email_alerts(p_limit integer, p_lease_seconds integer)
returns table (
  id uuid,
  claim uuid,
  user_id uuid,
  kind text,
  recipient text,
  subject text,
  body text,
  attempts integer
)
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_claim uuid := gen_random_uuid();
  v_lease_end timestamptz := now() + make_interval(secs => p_lease_seconds);
begin
  update public.email_outbox o
     set discarded_at = now(),
         last_error = 'Not sent: the owner turned these emails off, or the account has no confirmed email'
   where o.id in (
           select d.id
             from public.email_outbox d
            where d.sent_at is null
              and d.discarded_at is null
              and (d.claimed_until is null or d.claimed_until <= now())
              and public.email_alert_recipient(d.user_id, d.kind) is null
              for update skip locked
         );
  return query
  update public.email_outbox o
     set claimed_by = v_claim,
         claimed_until = v_lease_end,
         next_attempt_at = v_lease_end,
         recipient = public.email_alert_recipient(o.user_id, o.kind)
   where o.id in (
           select c.id
             from public.email_outbox c
            where c.sent_at is null
              and c.discarded_at is null
              and c.next_attempt_at <= now()
              and (c.claimed_until is null or c.claimed_until <= now())
              and public.email_alert_recipient(c.user_id, c.kind) is not null
            order by c.next_attempt_at, c.created_at
            limit p_limit
              for update skip locked
         )
  returning o.id, v_claim, o.user_id, o.kind, o.recipient, o.subject, o.body, o.attempts;
end;
$$;

-- Ends one claim whose mail the server refused for good: discarded with the reason (as the
-- function words it, never a password or a token) and the attempt counted, never claimed again.
-- Only the drain holding the claim can end it; answers whether it did, as finish_email_alert does.
create function public.discard_email_alert(p_id uuid, p_claim uuid, p_reason text) returns boolean
language plpgsql
security invoker
set search_path = ''
as $$
begin
  update public.email_outbox
     set discarded_at = now(),
         claimed_by = null,
         claimed_until = null,
         attempts = attempts + 1,
         last_error = left(p_reason, 500)
   where id = p_id and claimed_by = p_claim and sent_at is null and discarded_at is null;
  return found;
end;
$$;

revoke all on function public.discard_email_alert(uuid, uuid, text) from public;
revoke all on function public.discard_email_alert(uuid, uuid, text) from anon;
revoke all on function public.discard_email_alert(uuid, uuid, text) from authenticated;
grant execute on function public.discard_email_alert(uuid, uuid, text) to service_role;
