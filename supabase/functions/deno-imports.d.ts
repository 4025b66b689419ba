// The functions import supabase-js by Deno's `npm:` specifier, which tsc cannot
// resolve. Declaring that specifier as the same package we install (the one the
// rest of the project type-checks against) keeps index.ts and handler.ts fully
// type-checked, which excluding them from tsconfig would not. Deno never reads
// this file: it resolves `npm:` itself.
declare module 'npm:@supabase/supabase-js@2' {
  export * from '@supabase/supabase-js';
}
