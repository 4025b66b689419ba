import type { RawEnv } from '../../src/config/app-config.ts';

// What a build must not be given. Every VITE_ value the build sees is one the bundle could carry,
// and Tatum's key manages the whole Tatum account: it belongs to the Edge Functions
// (TATUM_API_KEY). The portal reads only its named keys (src/config/build-env.ts), but a build
// with a VITE_TATUM_ value set is a deployment that meant to ship it: vite.config.ts stops it.

/** The VITE_TATUM_ keys set (not blank), in order: what no build may be given. */
export function forbiddenBuildKeys(env: RawEnv): string[] {
  return Object.keys(env)
    .filter((key) => key.startsWith('VITE_TATUM_') && (env[key]?.trim() ?? '') !== '')
    .sort();
}

/** The sentence that stops the build, or null when nothing is wrong. */
export function buildEnvProblem(env: RawEnv): string | null {
  const keys = forbiddenBuildKeys(env);
  if (keys.length === 0) return null;
  const named =
    keys.length === 1 ? `${keys[0]} is set` : `${keys.slice(0, -1).join(', ')} and ${keys.at(-1)} are set`;
  return (
    `${named}: a VITE_ value ships in the bundle, and Tatum is reached through the Edge Functions ` +
    `(their TATUM_API_KEY, docs/deploy.md). Remove ${keys.length === 1 ? 'it' : 'them'} and build again.`
  );
}
