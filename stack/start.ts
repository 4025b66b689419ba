import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appEnvFor } from './app-env.ts';
import { startChain, type Chain } from './chain/index.ts';
import { LOCAL_MAIL_FROM, startGateway, type Gateway } from './gateway/index.ts';
import { startMailbox } from './mail/mailbox.ts';
import { freshChainNotice, parseFlags, readPorts, SettingsError } from './settings.ts';

// `npm run stack` starts the backend; `npm start` also starts the Vite app.
// When everything is ready it writes .local/stack.json and prints a banner;
// Ctrl-C or SIGTERM stops every part.

const PROJECT_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)));
const LOCAL_DIR = join(PROJECT_DIR, '.local');

async function main(): Promise<void> {
  const startedAt = performance.now();
  const flags = parseFlags(process.argv.slice(2), process.env);
  const ports = readPorts(process.env);
  const appUrl = `http://127.0.0.1:${ports.app}`;

  // STACK_DATA_DIR lets a second stack run beside the usual one (other ports, other data).
  const dataDir = process.env['STACK_DATA_DIR']
    ? resolve(process.env['STACK_DATA_DIR'])
    : join(LOCAL_DIR, 'data');
  const descriptionPath = process.env['STACK_DATA_DIR']
    ? join(dataDir, 'stack.json')
    : join(LOCAL_DIR, 'stack.json');
  if (flags.fresh) rmSync(dataDir, { recursive: true, force: true });
  // The chain starts first (about a second, the market's deployment included) so the
  // gateway's webhook receiver knows the DDEX address.
  const chain = await startChain({ port: ports.rpc, dataDir });
  // The mailbox keeps its mails with the stack's data, so a restart still shows them.
  const mailbox = await startMailbox({
    smtpPort: ports.smtp,
    webPort: ports.mailbox,
    mailDir: join(dataDir, 'mail'),
  }).catch(async (error: unknown) => {
    await chain.close();
    throw error;
  });
  let gateway: Gateway;
  try {
    gateway = await startGateway({
      port: ports.gateway,
      dataDir,
      emailConfirmations: flags.emailConfirmations,
      siteUrl: appUrl,
      tokenAddress: chain.tokenAddress,
      rpcUrl: chain.rpcUrl,
      uniswapRouter: chain.uniswap.router,
      functions: flags.functions,
      chainId: chain.chainId,
      faucetPrivateKey: chain.faucet.privateKey,
      smtp: { ...mailbox.smtp, from: LOCAL_MAIL_FROM },
      functionLog: (line) => console.log(line),
    });
  } catch (error) {
    await Promise.all([mailbox.stop(), chain.close()]);
    throw error;
  }
  const children: ChildProcess[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) child.kill('SIGTERM');
    await Promise.all([gateway.close(), chain.close(), mailbox.stop()]);
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    if (flags.withApp) children.push(await startVite(ports.app, gateway, chain, () => void stop(1)));
  } catch (error) {
    await Promise.all([gateway.close(), chain.close(), mailbox.stop()]);
    throw error;
  }

  const description = {
    appUrl: flags.withApp ? appUrl : null,
    supabaseUrl: gateway.url,
    anonKey: gateway.anonKey,
    serviceRoleKey: gateway.serviceRoleKey,
    webhookSecret: gateway.webhookSecret,
    // The emulator and the key it requires: for scripts and tests; the portal never has the key.
    tatumApiUrl: gateway.tatumApiUrl,
    tatumApiKey: gateway.tatumApiKey,
    processPaymentsUrl: `${gateway.url}/functions/v1/process-payments`,
    // The emulator's own subscription of the DDEX/WETH pair delivers every swap here.
    marketBotsUrl: `${gateway.url}/functions/v1/market-bots`,
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    tokenAddress: chain.tokenAddress,
    // The DDEX/WETH market (Uniswap V2); the portal is given only the router and reads the rest from it.
    uniswapV2Router: chain.uniswap.router,
    uniswapV2Factory: chain.uniswap.factory,
    weth: chain.uniswap.weth,
    ddexWethPair: chain.uniswap.pair,
    // The local mailbox: its inbox page (and REST API under /api) and where mail is sent.
    mailboxUrl: mailbox.url,
    smtp: mailbox.smtp,
    // Hardhat's public test keys, for the local chain only.
    accounts: chain.accounts,
  };
  mkdirSync(dirname(descriptionPath), { recursive: true });
  writeFileSync(descriptionPath, `${JSON.stringify(description, null, 2)}\n`, { mode: 0o600 });

  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(
    [
      '',
      `DDEX local stack ready in ${seconds} s${flags.fresh ? ' (fresh data)' : ''}`,
      flags.withApp ? `  Portal    ${appUrl}` : null,
      `  Supabase  ${gateway.url}  (auth, rest, storage, realtime, functions on ${flags.functions === 'deno' ? 'Deno' : 'Node, in-process'})`,
      `  Tatum     ${gateway.tatumApiUrl ?? ''}  (emulator: subscriptions, signed address-event webhooks; x-api-key in Details)`,
      `  Chain     ${chain.rpcUrl}  (Hardhat, chain id ${chain.chainId}, DDEX at ${chain.tokenAddress})`,
      `  Market    Uniswap V2 router ${chain.uniswap.router}  (DDEX/WETH pair ${chain.uniswap.pair})`,
      `  Bots      ${gateway.url}/functions/v1/market-bots  (the pair's swaps, through the emulator's subscription)`,
      `  Mailbox   ${mailbox.url}  (every mail the project sends, over SMTP at ${mailbox.smtp.host}:${mailbox.smtp.port})`,
      `  Email confirmations ${flags.emailConfirmations ? 'on' : 'off'}`,
      `  Details   ${descriptionPath}`,
      freshChainNotice(flags),
      '  Ctrl-C stops everything.',
      '',
    ]
      .filter((line) => line !== null)
      .join('\n'),
  );
}

function startVite(port: number, gateway: Gateway, chain: Chain, onExit: () => void): Promise<ChildProcess> {
  const viteBin = join(PROJECT_DIR, 'node_modules', 'vite', 'bin', 'vite.js');
  const child = spawn(
    process.execPath,
    [viteBin, '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    {
      cwd: PROJECT_DIR,
      env: { ...process.env, ...appEnvFor(gateway, chain) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolveChild, reject) => {
    let ready = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      if (!ready && text.includes('Local:')) {
        ready = true;
        resolveChild(child);
      } else if (ready) {
        process.stdout.write(text);
      }
    });
    child.on('exit', (code) => {
      if (!ready) reject(new Error(`Vite exited with code ${code ?? 'null'} before it was ready.`));
      else onExit();
    });
  });
}

main().catch((error: unknown) => {
  if (error instanceof SettingsError) {
    console.error(`Cannot start: ${error.message}`);
  } else {
    console.error('Cannot start the local stack:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
