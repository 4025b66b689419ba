import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Gateway } from '../../../stack/gateway/index.ts';
import { RawSocket } from '../realtime.ts';
import { startOwnGateway, type OwnGatewayOptions } from './own-stack.ts';
import { serviceClient, signedInUser, type Client, type TestUser } from './users.ts';

// Realtime tests on a gateway of the file's own (own-stack.ts), for what the shared one cannot
// give: tokens signed with its JWT secret, its Realtime server's database work, a flood that must
// slow no other file. Its functions run in this process. The clients and raw sockets a test opens
// are closed after it, so no channel of one test hears the next test's rows.

/** The file's gateway and what its tests open on it; gateway and service once the file has started. */
export type OwnRealtime = {
  readonly gateway: Gateway;
  /** A service-role client on the gateway, acting as the server. */
  readonly service: Client;
  /** A fresh signed-in user, whose channels are removed after the test. */
  user(label: string): Promise<TestUser>;
  /**
   * A raw Realtime socket (protocol 2.0.0), closed after the test: with the anon key unless `key`
   * says 'service', from 127.0.0.1 unless `from` names another loopback address.
   */
  openSocket(options?: { key?: 'anon' | 'service'; from?: string }): Promise<RawSocket>;
  /** A client the test made itself, whose channels are removed after the test. */
  keep(client: Client): Client;
  /** Inserts a notification for `userId` as the server does; the new row's id. */
  notify(userId: string, title: string, message?: string): Promise<{ id: string }>;
};

/**
 * Starts the file's own gateway before its tests and stops it after them (Vitest hooks registered
 * here, so call it at the top of the file); the accessors fail clearly before it has started.
 */
export function ownRealtimeGateway(name: string, options: OwnGatewayOptions = {}): OwnRealtime {
  let started: { gateway: Gateway; service: Client } | undefined;
  const clients: Client[] = [];
  const sockets: RawSocket[] = [];

  const running = () => {
    if (!started) throw new Error(`the ${name} gateway has not started (use it inside a test or hook)`);
    return started;
  };
  const keep = (client: Client): Client => {
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    const gateway = await startOwnGateway(name, { functions: 'node', ...options });
    started = { gateway, service: serviceClient(gateway) };
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
    for (const socket of sockets.splice(0)) socket.close();
  });

  afterAll(async () => {
    await started?.service.removeAllChannels();
    await started?.gateway.close();
  });

  return {
    get gateway() {
      return running().gateway;
    },
    get service() {
      return running().service;
    },
    async user(label) {
      const created = await signedInUser(running().gateway, label);
      keep(created.client);
      return created;
    },
    async openSocket({ key = 'anon', from } = {}) {
      const { gateway } = running();
      const apikey = key === 'service' ? gateway.serviceRoleKey : gateway.anonKey;
      const socket = await RawSocket.open(gateway.url, apikey, '2.0.0', from);
      sockets.push(socket);
      return socket;
    },
    keep,
    async notify(userId, title, message = `message for ${title}`) {
      const { data, error } = await running()
        .service.from('user_notifications')
        .insert({ user_id: userId, title, message })
        .select('id')
        .single();
      expect(error).toBeNull();
      if (!data) throw new Error('insert returned no row');
      return data;
    },
  };
}
