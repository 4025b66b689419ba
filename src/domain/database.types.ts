// The database's types have one home, beside the Edge Functions that deploy
// with them (supabase/functions/_shared/database.types.ts); the browser reads
// the same file. Type-only: nothing of it reaches the bundle.
export type * from '../../supabase/functions/_shared/database.types.ts';
