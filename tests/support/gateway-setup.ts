import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startGateway } from '../../stack/gateway/index.ts';

// Starts one local gateway with empty data on a free port for the contract
// tests, and removes it and its data afterwards.
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ddex-contract-'));
  const gateway = await startGateway({ port: 0, dataDir, quietEmail: true });
  project.provide('gateway', {
    url: gateway.url,
    anonKey: gateway.anonKey,
    serviceRoleKey: gateway.serviceRoleKey,
    webhookSecret: gateway.webhookSecret,
  });
  return async () => {
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    gateway: { url: string; anonKey: string; serviceRoleKey: string; webhookSecret: string };
  }
}
