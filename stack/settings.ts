// Reads the stack's command-line flags and environment. Bad values stop the
// start with a message naming the key, never a stack trace or a silent default.

export type StackFlags = {
  fresh: boolean;
  withApp: boolean;
  emailConfirmations: boolean;
  /** `--functions deno` (the default: each function from its real entry point) or `--functions node`. */
  functions: 'deno' | 'node';
};

export type StackPorts = {
  app: number;
  gateway: number;
  rpc: number;
  mailbox: number;
  smtp: number;
};

export class SettingsError extends Error {
  override name = 'SettingsError';
}

const FLAG_NAMES = ['--fresh', '--with-app', '--confirm-email', '--functions deno|node'] as const;
const RUNTIMES = ['deno', 'node'] as const;

export function parseFlags(argv: readonly string[], env: NodeJS.ProcessEnv): StackFlags {
  let functions: StackFlags['functions'] = 'deno';
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    if (arg === '--functions' || arg.startsWith('--functions=')) {
      const value = arg === '--functions' ? argv[(index += 1)] : arg.slice('--functions='.length);
      if (!(RUNTIMES as readonly (string | undefined)[]).includes(value)) {
        throw new SettingsError(`--functions takes deno or node, got "${value ?? ''}".`);
      }
      functions = value as StackFlags['functions'];
    } else if (!['--fresh', '--with-app', '--confirm-email'].includes(arg)) {
      throw new SettingsError(`Unknown option "${arg}". Known options: ${FLAG_NAMES.join(', ')}.`);
    }
  }
  return {
    fresh: argv.includes('--fresh'),
    withApp: argv.includes('--with-app'),
    emailConfirmations:
      argv.includes('--confirm-email') || readBoolean(env, 'STACK_EMAIL_CONFIRMATIONS', false),
    functions,
  };
}

export function readPorts(env: NodeJS.ProcessEnv): StackPorts {
  return {
    app: readPort(env, 'STACK_APP_PORT', 5173),
    gateway: readPort(env, 'STACK_GATEWAY_PORT', 54321),
    rpc: readPort(env, 'STACK_RPC_PORT', 8545),
    // The Supabase CLI's local mailbox ports (config.toml's [inbucket]).
    mailbox: readPort(env, 'STACK_MAILBOX_PORT', 54324),
    smtp: readPort(env, 'STACK_SMTP_PORT', 54325),
  };
}

function readPort(env: NodeJS.ProcessEnv, key: string, fallback: number): number {
  const raw = env[key]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
    throw new SettingsError(`${key} must be a port number from 1 to 65535, got "${raw}".`);
  }
  return Number(raw);
}

export function readBoolean(env: NodeJS.ProcessEnv, key: string, fallback: boolean): boolean {
  const raw = env[key]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new SettingsError(`${key} must be true or false, got "${env[key] ?? ''}".`);
}

/**
 * What a start afresh prints once: a wallet that used the old chain still counts its nonces and
 * every transaction it sends is refused until its activity is cleared. It gives the same steps as
 * the portal's toast for that refusal (walletCopy.nonceAhead).
 */
export function freshChainNotice(flags: Pick<StackFlags, 'fresh'>): string | null {
  return flags.fresh
    ? "  Fresh chain: a wallet that used the old one is ahead of it, and what it sends is refused until you clear the wallet's activity for this network (MetaMask: Settings, Advanced, Clear activity tab data)."
    : null;
}
