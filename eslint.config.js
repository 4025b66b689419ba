import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The layers of src/ and what each may import from the others (docs/architecture.md): whatever a
// layer does not list is reported, as a static import, an `export … from` or an `import()`. A layer
// always imports its own files; src/main.tsx, the composition root, imports everything.
const views = {
  may: ['domain', 'copy', 'machines'],
  packages: 'no SDK',
  why: 'views render snapshots and send events; adapters reach them only through machines',
};
const layers = [
  {
    name: 'domain',
    may: [],
    packages: 'none',
    why: 'it holds the portal’s own types and pure helpers, which every layer shares',
  },
  { name: 'copy', may: ['domain'], why: 'the portal’s words depend on nothing but its types' },
  { name: 'config', may: ['domain'], why: 'it only reads the build’s environment' },
  {
    name: 'machines',
    may: ['domain', 'copy'],
    packages: 'xstate only',
    why: 'statecharts stay pure; effects come in as actors provided by src/app/provide-portal.ts',
  },
  {
    name: 'services',
    may: ['domain', 'config'],
    why: 'adapters return typed error codes and leave the words (src/copy) to machines and views',
  },
  { name: 'ui', ...views },
  {
    // The one door from the views to the developer tools: their options type, and the panel's
    // chunk loaded lazily, which a production page without the panel never downloads.
    name: 'ui',
    files: ['src/ui/App.tsx'],
    ...views,
    typesAndLazy: { folder: 'devtools', why: 'so that the developer panel stays a chunk of its own' },
  },
  {
    name: 'devtools',
    may: ['domain', 'copy', 'machines', 'ui'],
    packages: 'no SDK',
    why: 'the developer tools watch machines and reuse views; src/main.tsx wires them to the rest',
  },
  {
    name: 'app',
    may: ['domain', 'copy', 'config', 'machines', 'services', 'ui'],
    why: 'src/main.tsx alone wires the developer tools, which stay a chunk of their own',
  },
];

// Everything in src/ runs in the browser.
const browserOnly = { regex: '^node:', message: 'src/ runs in the browser: it imports no Node built-in.' };

const folders = [...new Set(layers.map((layer) => layer.name))];
// The SDKs the adapters wrap, which only src/services bundles.
const sdks = ['viem', '@supabase', '@tatumio', '@noble'];

// A relative path that climbs out of the importing folder into `folder`, at any depth.
const folderSource = (folder) => `^(?:\\.\\./)+(?:src/)?${folder}(?:/|$)`;
const packageRules = {
  none: { regex: '^(?!\\.)', words: 'any package' },
  'xstate only': { regex: '^(?!\\.|xstate$)', words: 'a package other than xstate' },
  'no SDK': { regex: `^(?:${sdks.join('|')})(?:/|$)`, words: `an SDK (${sdks.join(', ')})` },
};

const inWords = (names) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? 'nothing');

/** The imports a layer may not use, each a source regex and the message that explains it. */
function restrictionsOf(layer) {
  const lazy = layer.typesAndLazy;
  const allowed = new Set([layer.name, ...layer.may, ...(lazy ? [lazy.folder] : [])]);
  const mayText = `from src/ it imports ${inWords(layer.may.map((name) => `src/${name}`))}`;
  const restrictions = folders
    .filter((folder) => !allowed.has(folder))
    .map((folder) => ({
      regex: folderSource(folder),
      message: `src/${layer.name} must not import src/${folder}: ${mayText} (${layer.why}).`,
    }));
  if (lazy) {
    restrictions.push({
      regex: folderSource(lazy.folder),
      message: `${layer.files.join(', ')} imports src/${lazy.folder} only as types (\`import type\`) or lazily with import(), ${lazy.why}.`,
      staticTypesOnly: true,
    });
  }
  if (layer.packages) {
    const { regex, words } = packageRules[layer.packages];
    restrictions.push({ regex, message: `src/${layer.name} must not import ${words} (${layer.why}).` });
  }
  return [...restrictions, browserOnly];
}

function boundaryRules(restrictions) {
  return {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: restrictions.map(({ regex, message, staticTypesOnly }) => ({
          regex,
          message,
          caseSensitive: true,
          ...(staticTypesOnly ? { allowTypeImports: true } : {}),
        })),
      },
    ],
    // no-restricted-imports does not look at import(): the same sources, as syntax.
    'no-restricted-syntax': [
      'error',
      ...restrictions
        .filter(({ staticTypesOnly }) => !staticTypesOnly)
        .map(({ regex, message }) => ({
          selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/]`,
          message,
        })),
    ],
  };
}

export default tseslint.config(
  { ignores: ['dist', 'node_modules', '.local', 'coverage', 'reports', '.stryker-tmp', '**/*.tmp.ts'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      // Dropping a field by destructuring it out of a copy is the idiom here.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['src/*.{ts,tsx}'],
    rules: boundaryRules([browserOnly]),
  },
  // A later block replaces a rule's options instead of adding to them: each file of src/ gets its
  // whole list from one block (src/ui/App.tsx's comes after the rest of src/ui's).
  ...layers.map((layer) => ({
    files: layer.files ?? [`src/${layer.name}/**/*.{ts,tsx}`],
    rules: boundaryRules(restrictionsOf(layer)),
  })),
  {
    // The stack's start script, the benchmarks and the size check talk to a terminal.
    files: [
      'stack/start.ts',
      'bench/**/*.ts',
      'scripts/check-entry-size.ts',
      'scripts/check-functions.ts',
      'scripts/deploy-check.ts',
    ],
    rules: { 'no-console': 'off' },
  },
);
