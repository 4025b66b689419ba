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
  /** What the Tatum emulator requires as x-api-key; only the functions hold it (TATUM_API_KEY). */
  tatumApiKey: string;
  /** Signs the email alerts' unsubscribe links; only the functions hold it (EMAIL_UNSUBSCRIBE_SECRET). */
  emailUnsubscribeSecret: string;
};

const FILE = 'secrets.json';

export async function loadOrCreateSecrets(dataDir: string): Promise<StackSecrets> {
  const path = join(dataDir, FILE);
  if (existsSync(path)) {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (isSecrets(parsed)) return parsed;
    // A data folder from before the emulator required a key, or before the email alerts, gets
    // what it lacks, and keeps everything else.
    const record = parsed as Record<string, unknown>;
    const upgraded = {
      ...record,
      ...(usable(record['tatumApiKey']) ? {} : { tatumApiKey: newTatumKey() }),
      ...(usable(record['emailUnsubscribeSecret']) ? {} : { emailUnsubscribeSecret: newSecret() }),
    };
    if (isSecrets(upgraded)) {
      writeFileSync(path, JSON.stringify(upgraded, null, 2), { mode: 0o600 });
      return upgraded;
    }
    throw new Error(`${path} is damaged; start with --fresh to make new local credentials.`);
  }
  const secrets: StackSecrets = {
    jwtSecret: newSecret(),
    anonKey: (await generateApiKey('publishable')).key,
    serviceRoleKey: (await generateApiKey('secret')).key,
    webhookSecret: newSecret(),
    tatumApiKey: newTatumKey(),
    emailUnsubscribeSecret: newSecret(),
  };
  writeFileSync(path, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

const usable = (value: unknown): boolean => typeof value === 'string' && value !== '';

/** Shaped like a Tatum key, and recognisable (a dist/ scan searches for its value). */
function newTatumKey(): string {
  return `t-local-${randomBytes(24).toString('hex')}`;
}

function isSecrets(value: unknown): value is StackSecrets {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return [
    'jwtSecret',
    'anonKey',
    'serviceRoleKey',
    'webhookSecret',
    'tatumApiKey',
    'emailUnsubscribeSecret',
  ].every((key) => usable(record[key]));
}
