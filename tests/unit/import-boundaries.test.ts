import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layer boundaries of src/ are lint rules (eslint.config.js): these snippets, linted as if
// they sat at the given path, show that each rule reports a violating import and lets the
// imports a layer is meant to use through.

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: 'eslint.config.js' });
const boundaryRules = new Set(['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax']);

async function boundaryMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId !== null && boundaryRules.has(message.ruleId))
    .map((message) => message.message);
}

const MACHINE = 'src/machines/x.machine.ts';
/** A machine in a feature's folder of src/machines: the same rules, one folder deeper. */
const FEATURE_MACHINE = 'src/machines/x/x.machine.ts';
const VIEW = 'src/ui/portal/X.tsx';
const SERVICE = 'src/services/supabase/x.ts';

describe('import boundaries: violations are reported', () => {
  it.each([
    [MACHINE, `import { App } from '../ui/App.tsx';`, 'src/machines must not import src/ui'],
    [
      MACHINE,
      `import { createTokenService } from '../services/token/token-service.ts';`,
      'src/machines must not import src/services',
    ],
    [
      MACHINE,
      `import type { TokenService } from '../services/token/types.ts';`,
      'src/machines must not import src/services',
    ],
    [
      MACHINE,
      `const load = () => import('../services/token/index.ts');`,
      'src/machines must not import src/services',
    ],
    [
      MACHINE,
      `import { providePortal } from '../app/provide-portal.ts';`,
      'src/machines must not import src/app',
    ],
    [
      MACHINE,
      `import { parseEther } from 'viem';`,
      'src/machines must not import a package other than xstate',
    ],
    [FEATURE_MACHINE, `import { App } from '../../ui/App.tsx';`, 'src/machines must not import src/ui'],
    [
      FEATURE_MACHINE,
      `const load = () => import('../../services/token/index.ts');`,
      'src/machines must not import src/services',
    ],
    [
      FEATURE_MACHINE,
      `import { parseEther } from 'viem';`,
      'src/machines must not import a package other than xstate',
    ],
    [
      MACHINE,
      `import type { Address } from 'viem';`,
      'src/machines must not import a package other than xstate',
    ],
    [
      MACHINE,
      `import { useState } from 'react';`,
      'src/machines must not import a package other than xstate',
    ],
    [
      MACHINE,
      `import { createClient } from '@supabase/supabase-js';`,
      'src/machines must not import a package other than xstate',
    ],
    [
      VIEW,
      `import { createSupabaseService } from '../../services/supabase/index.ts';`,
      'src/ui must not import src/services',
    ],
    [
      VIEW,
      `import type { SupabaseService } from '../../services/supabase/types.ts';`,
      'src/ui must not import src/services',
    ],
    [
      VIEW,
      `const load = () => import('../../services/supabase/index.ts');`,
      'src/ui must not import src/services',
    ],
    [VIEW, `import { providePortal } from '../../app/provide-portal.ts';`, 'src/ui must not import src/app'],
    [VIEW, `import { parseEther } from 'viem';`, 'src/ui must not import an SDK'],
    [
      VIEW,
      `import type { DevtoolsOptions } from '../../devtools/panel/types.ts';`,
      'src/ui must not import src/devtools',
    ],
    [
      'src/ui/App.tsx',
      `import { devtoolsEnabled } from '../devtools/panel/gate.ts';`,
      'src/ui/App.tsx imports src/devtools only as types',
    ],
    [SERVICE, `import { copy } from '../../copy/index.ts';`, 'src/services must not import src/copy'],
    [SERVICE, `export { copy } from '../../copy/index.ts';`, 'src/services must not import src/copy'],
    [
      SERVICE,
      `import { authMachine } from '../../machines/auth/auth.machine.ts';`,
      'src/services must not import src/machines',
    ],
    [SERVICE, `import { App } from '../../ui/App.tsx';`, 'src/services must not import src/ui'],
    ['src/domain/x.ts', `import type { Address } from 'viem';`, 'src/domain must not import any package'],
    ['src/domain/x.ts', `import { copy } from '../copy/index.ts';`, 'src/domain must not import src/copy'],
    [
      'src/app/x.ts',
      `import { createJournal } from '../devtools/journal.ts';`,
      'src/app must not import src/devtools',
    ],
    ['src/config/x.ts', `import { readFileSync } from 'node:fs';`, 'src/ runs in the browser'],
  ])('%s: %s', async (filePath, code, expected) => {
    const messages = await boundaryMessages(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(expected);
  });
});

describe('import boundaries: allowed imports pass', () => {
  it.each([
    [
      MACHINE,
      [
        `import type { AuthUser } from '../domain/auth.ts';`,
        `import { copy } from '../copy/index.ts';`,
        `import { assign, setup } from 'xstate';`,
        `import { report } from './shared.ts';`,
        `import { tabMachine } from './tab.machine.ts';`,
      ],
    ],
    [
      FEATURE_MACHINE,
      [
        `import type { AuthUser } from '../../domain/auth.ts';`,
        `import { copy } from '../../copy/index.ts';`,
        `import { assign, setup } from 'xstate';`,
        `import { report } from '../shared.ts';`,
        `import { tabMachine } from '../tab.machine.ts';`,
        `import { authMachine } from '../auth/auth.machine.ts';`,
        `import type { XContext } from './x-types.ts';`,
      ],
    ],
    [
      'src/ui/shell/TabBar.tsx',
      [
        `import { tabMachine } from '../../machines/tab.machine.ts';`,
        `import { displayName } from '../../machines/profile/display-name.ts';`,
        `import type { Profile } from '../../domain/profile.ts';`,
        `import { copy } from '../../copy/index.ts';`,
        `import { useState } from 'react';`,
        `import styled from 'styled-components';`,
        `import { useSelector } from '@xstate/react';`,
      ],
    ],
    [
      'src/ui/App.tsx',
      [
        `import { lazy } from 'react';`,
        `import type { DevtoolsOptions } from '../devtools/panel/types.ts';`,
        `const DevtoolsPanel = lazy(() => import('../devtools/panel/DevtoolsPanel.tsx'));`,
      ],
    ],
    [
      'src/services/token/token-service.ts',
      [
        `import { parseEther } from 'viem';`,
        `import type { AuthUser } from '../../domain/auth.ts';`,
        `import type { AppConfig } from '../../config/app-config.ts';`,
        `import { onFirstUse } from '../on-first-use.ts';`,
        `import type { TokenService } from './types.ts';`,
      ],
    ],
    [
      'src/main.tsx',
      [
        `import { createJournal } from './devtools/journal.ts';`,
        `import { createWalletService } from './services/wallet/index.ts';`,
        `import { App } from './ui/App.tsx';`,
      ],
    ],
  ])('%s', async (filePath, lines) => {
    expect(await boundaryMessages(filePath, lines.join('\n'))).toEqual([]);
  });
});
