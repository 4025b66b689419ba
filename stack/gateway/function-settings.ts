import { readFileSync } from 'node:fs';
import { tomlSections } from './config-toml.ts';

// Each Edge Function's settings as supabase/config.toml declares them for a
// hosted project (`[functions.<name>]`). Only `verify_jwt` matters to the
// local gateway; the hosted default, when a function has no section or no
// key, is to verify.

export type FunctionSettings = { verifyJwt: boolean };

/** The `[functions.<name>]` sections of a config.toml, by function name. */
export function parseFunctionSettings(toml: string): Map<string, FunctionSettings> {
  const settings = new Map<string, FunctionSettings>();
  for (const [section, values] of tomlSections(toml)) {
    const name = /^functions\.("?)([A-Za-z0-9_-]+)\1$/.exec(section)?.[2];
    if (name) settings.set(name, { verifyJwt: values.get('verify_jwt') !== 'false' });
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
