import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import WebSocket from 'ws';
import type { Database } from '../../../src/domain/database.types.ts';

// The stack's users as the contract and e2e layers make them: supabase-js clients as the portal
// and the server functions make them, users signed up and signed in through the gateway, and what a
// user sees of their own data. Each layer passes its gateway: the contract layer `inject('gateway')`,
// the e2e layer `gatewayFor(variant)` or `e2e().gateways[name]`. On Node 20 realtime-js needs the
// ws package as its transport.

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

/** The users one test file signs in on a stack, and the service client it acts as the server with. */
export type FileUsers = {
  stack: StackInfo;
  service: Client;
  /** A fresh signed-in user (signedInUser), whose client `closeChannels` later cleans up. */
  signIn(label?: string): Promise<TestUser>;
  /** Removes the realtime channels a test opened on the clients signed in since; the file's afterEach. */
  closeChannels(): Promise<void>;
};

export function fileUsers(stack: StackInfo, service: Client = serviceClient(stack)): FileUsers {
  const clients: Client[] = [];
  return {
    stack,
    service,
    async signIn(label) {
      const user = await signedInUser(stack, label);
      clients.push(user.client);
      return user;
    },
    async closeChannels() {
      await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
    },
  };
}

export type SeenOptions = {
  /** Ask for the history ordered by log index; otherwise rows come in the table's order. */
  inLogOrder?: boolean;
};

/** What the user sees: their own history and notifications, through their own client. */
export async function seenBy(who: TestUser, { inLogOrder = false }: SeenOptions = {}) {
  const history = who.client.from('transactions').select('*');
  const [transactions, notifications] = await Promise.all([
    inLogOrder ? history.order('log_index') : history,
    who.client.from('user_notifications').select('*'),
  ]);
  expect(transactions.error).toBeNull();
  expect(notifications.error).toBeNull();
  return { transactions: transactions.data ?? [], notifications: notifications.data ?? [] };
}

/** What `who` sees of one transaction: their rows of it, and the notifications naming it. */
export async function seenOf(who: TestUser, txHash: string, options: SeenOptions = {}) {
  const seen = await seenBy(who, options);
  return {
    transactions: seen.transactions.filter((row) => row.tx_hash === txHash.toLowerCase()),
    notifications: seen.notifications.filter((n) => n.message.includes(txHash.slice(0, 10))),
  };
}
