// The secrets and settings a function reads from its environment: the hosted
// platform provides SUPABASE_URL, SUPABASE_ANON_KEY and
// SUPABASE_SERVICE_ROLE_KEY; the rest are set with `supabase secrets set`
// (docs/deploy.md#configuration-keys).

/** The value of a required setting; a function refuses to start without it. */
export function required(fn: string, name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`${fn}: ${name} is not set`);
  return value;
}

/** The value of an optional setting, or null. */
export function optional(name: string): string | null {
  return Deno.env.get(name) || null;
}
