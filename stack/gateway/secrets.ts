import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateApiKey } from '@supabase/lite';

// Local-only credentials, made on first start and kept in the git-ignored data
// folder so sessions and keys survive a restart. They mean nothing off this
// machine; hosted projects have their own.
export type StackSecrets = {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  webhookSecret: string;
};

const FILE = 'secrets.json';

export async function loadOrCreateSecrets(dataDir: string): Promise<StackSecrets> {
  const path = join(dataDir, FILE);
  if (existsSync(path)) {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (isSecrets(parsed)) return parsed;
    throw new Error(`${path} is damaged; start with --fresh to make new local credentials.`);
  }
  const secrets: StackSecrets = {
    jwtSecret: randomBytes(32).toString('base64url'),
    anonKey: (await generateApiKey('publishable')).key,
    serviceRoleKey: (await generateApiKey('secret')).key,
    webhookSecret: randomBytes(32).toString('base64url'),
  };
  writeFileSync(path, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

function isSecrets(value: unknown): value is StackSecrets {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['jwtSecret', 'anonKey', 'serviceRoleKey', 'webhookSecret'].every(
    (key) => typeof record[key] === 'string' && record[key] !== '',
  );
}
