import { readFileSync } from 'node:fs';

// Each Edge Function's settings as supabase/config.toml declares them for a
// hosted project (`[functions.<name>]`). Only `verify_jwt` matters to the
// local gateway; the hosted default, when a function has no section or no
// key, is to verify.

export type FunctionSettings = { verifyJwt: boolean };

/** The `[functions.<name>]` sections of a config.toml, by function name. */
export function parseFunctionSettings(toml: string): Map<string, FunctionSettings> {
  const settings = new Map<string, FunctionSettings>();
  let current: string | null = null;
  for (const raw of toml.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      const name = /^functions\.("?)([A-Za-z0-9_-]+)\1$/.exec(section[1] ?? '')?.[2] ?? null;
      current = name;
      if (name && !settings.has(name)) settings.set(name, { verifyJwt: true });
      continue;
    }
    const verify = /^verify_jwt\s*=\s*(true|false)$/.exec(line);
    if (current && verify) settings.set(current, { verifyJwt: verify[1] === 'true' });
  }
  return settings;
}

export function readFunctionSettings(configPath: string): Map<string, FunctionSettings> {
  return parseFunctionSettings(readFileSync(configPath, 'utf8'));
}

/** Whether the gateway checks the caller's JWT before the function runs (hosted default: yes). */
export function verifiesJwt(settings: Map<string, FunctionSettings>, name: string): boolean {
  return settings.get(name)?.verifyJwt ?? true;
}
