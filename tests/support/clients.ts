import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { Database } from '../../src/domain/database.types.ts';

// supabase-js clients as the portal and the server functions make them. On
// Node 20 realtime-js needs the ws package as its transport.

export type StackInfo = { url: string; anonKey: string; serviceRoleKey: string };
export type Client = SupabaseClient<Database>;

export function anonClient(stack: StackInfo): Client {
  return createClient<Database>(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
}

export function serviceClient(stack: StackInfo): Client {
  return createClient<Database>(stack.url, stack.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
}

export type TestUser = { client: Client; id: string; email: string; password: string; accessToken: string };

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

export const PASSWORD = 'Testnet-only-pass-1';

/** Signs up a fresh user (confirmations off) and returns a client signed in as them. */
export async function signedInUser(stack: StackInfo, label?: string): Promise<TestUser> {
  const client = anonClient(stack);
  const email = uniqueEmail(label);
  const { data, error } = await client.auth.signUp({ email, password: PASSWORD });
  if (error || !data.user || !data.session)
    throw new Error(`sign-up failed: ${error?.message ?? 'no session'}`);
  return { client, id: data.user.id, email, password: PASSWORD, accessToken: data.session.access_token };
}

/** Smallest valid images of each type the avatars bucket accepts. */
export const IMAGES = {
  png: Uint8Array.from(
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    ),
  ),
  gif: Uint8Array.from(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')),
  jpeg: Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]),
};
