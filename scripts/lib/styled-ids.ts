import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import { parseAst, type Plugin } from 'vite';

// Stable styled-components class names. Without a componentId, styled-components v6 names each
// component after a counter of the components created so far, so a module graph that creates them
// in another order (the prerender's, src/prerender.tsx, beside the bundle's) gives other class
// names, and hydration then keeps the server's, which no longer match the bundle's styles. This
// transform gives every `const X = styled…` declaration `.withConfig({ componentId })` made of a
// short hash of its file's path (from the project root, so every machine agrees) and its name.
//
// It also minifies the CSS of styled-components' templates (comments, indentation, the spaces
// around braces, semicolons and commas) as babel-plugin-styled-components does: that text ships in
// the JavaScript, and what it saves pays for the ids within the entry's budget (docs/benchmarks.md).

/** An ESTree node as the parser gives it: its kind, its span and its fields. */
type Node = { type: string; start: number; end: number; [field: string]: unknown };

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

function* walk(node: Node): Generator<Node> {
  yield node;
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) yield* walk(item);
    } else if (isNode(value)) yield* walk(value);
  }
}

/** The names the module gives styled-components' `styled` (its default or named export). */
function styledNames(program: Node): Set<string> {
  const names = new Set<string>();
  for (const statement of program.body as Node[]) {
    if (statement.type !== 'ImportDeclaration') continue;
    if ((statement.source as { value: unknown }).value !== 'styled-components') continue;
    for (const specifier of statement.specifiers as Node[]) {
      const local = (specifier.local as { name: string }).name;
      if (specifier.type === 'ImportDefaultSpecifier') names.add(local);
      const imported = specifier.imported as { name?: string } | undefined;
      if (specifier.type === 'ImportSpecifier' && imported?.name === 'styled') names.add(local);
    }
  }
  return names;
}

const TEMPLATE_HELPERS = new Set(['css', 'keyframes', 'createGlobalStyle']);

/** The names the module gives styled-components' other template tags (css, keyframes, createGlobalStyle). */
function helperNames(program: Node): Set<string> {
  const names = new Set<string>();
  for (const statement of program.body as Node[]) {
    if (statement.type !== 'ImportDeclaration') continue;
    if ((statement.source as { value: unknown }).value !== 'styled-components') continue;
    for (const specifier of statement.specifiers as Node[]) {
      const imported = (specifier.imported as { name?: string } | undefined)?.name;
      if (specifier.type === 'ImportSpecifier' && imported && TEMPLATE_HELPERS.has(imported)) {
        names.add((specifier.local as { name: string }).name);
      }
    }
  }
  return names;
}

type Chain = 'styled' | 'configured' | null;

/**
 * Whether a tag is a styled constructor: `styled.tag`, `styled(Comp)`, either followed by
 * `.attrs(…)` calls; 'configured' when it already has a `.withConfig(…)`.
 */
function styledChain(tag: Node, names: Set<string>): Chain {
  const isStyled = (node: unknown) =>
    isNode(node) && node.type === 'Identifier' && names.has(node.name as string);
  if (tag.type === 'MemberExpression' && !tag.computed && isStyled(tag.object)) return 'styled';
  if (tag.type !== 'CallExpression' || !isNode(tag.callee)) return null;
  if (isStyled(tag.callee)) return 'styled';
  const callee = tag.callee;
  if (callee.type !== 'MemberExpression' || callee.computed || !isNode(callee.object)) return null;
  const method = (callee.property as { name?: string }).name;
  if (method !== 'attrs' && method !== 'withConfig') return null;
  const inner = styledChain(callee.object, names);
  if (inner === null) return null;
  return method === 'withConfig' ? 'configured' : inner;
}

/** A short, stable hash of a file's path from the project root; it starts with a letter (a CSS class). */
export function fileHash(file: string, root: string): string {
  const path = relative(root, file).split(sep).join('/');
  return `s${createHash('sha256').update(path).digest('hex').slice(0, 6)}`;
}

const LANGS = { '.ts': 'ts', '.tsx': 'tsx', '.js': 'js', '.jsx': 'jsx', '.mts': 'ts', '.mjs': 'js' } as const;

const langOf = (file: string) => LANGS[/\.[cm]?[jt]sx?$/.exec(file)?.[0] as keyof typeof LANGS];

/**
 * The CSS of a template's parts (the text between its interpolations), minified, or null when it
 * is better left alone: a `//` comment (whose end is a line break), an escape, a url() or an
 * unclosed comment or quote.
 * Quoted text is kept as written; whitespace elsewhere is one space, and none next to { } ; , after
 * a colon, or at the template's ends.
 */
export function minifyCss(parts: string[]): string[] | null {
  // An unquoted url() may hold anything, spaces and semicolons included.
  if (parts.some((part) => /url\(/i.test(part))) return null;
  let quote: string | null = null;
  const out: string[] = [];
  for (const [index, part] of parts.entries()) {
    let text = '';
    for (let i = 0; i < part.length; i += 1) {
      const char = part[i] as string;
      if (char === '\\') return null;
      if (quote) {
        text += char;
        if (char === quote) quote = null;
      } else if (char === "'" || char === '"') {
        text += char;
        quote = char;
      } else if (char === '/' && part[i + 1] === '/') {
        return null;
      } else if (char === '/' && part[i + 1] === '*') {
        const end = part.indexOf('*/', i + 2);
        if (end < 0) return null;
        i = end + 1;
        text += ' ';
      } else if (/\s/.test(char)) {
        if (!text.endsWith(' ')) text += ' ';
      } else {
        // A space before { } ; , goes; one after them is never added (the next branch's check).
        if ('{};,'.includes(char) && text.endsWith(' ')) text = text.slice(0, -1);
        text += char;
        // After a colon too (`color: red`), never before one: `a :hover` is not `a:hover`.
        if ('{};,:'.includes(char)) {
          while (/\s/.test(part[i + 1] ?? '')) i += 1;
        }
      }
    }
    if (index === 0) text = text.trimStart();
    if (index === parts.length - 1) text = text.trimEnd();
    out.push(text);
  }
  return quote ? null : out;
}

export type StyledIds = { code: string; ids: string[] };

/** The module with a componentId on each styled declaration, or null when it declares none. */
export function withStyledIds(code: string, file: string, root: string): StyledIds | null {
  const lang = langOf(file);
  if (!lang || !code.includes('styled-components')) return null;
  const program = parseAst(code, { lang }) as unknown as Node;
  const names = styledNames(program);
  const helpers = helperNames(program);
  if (names.size === 0 && helpers.size === 0) return null;
  const hash = fileHash(file, root);
  const edits: { start: number; end: number; text: string }[] = [];
  const ids: string[] = [];
  for (const node of walk(program)) {
    if (node.type === 'TaggedTemplateExpression' && isNode(node.tag) && isNode(node.quasi)) {
      const { tag } = node;
      const isHelper = tag.type === 'Identifier' && helpers.has(tag.name as string);
      if (isHelper || styledChain(tag, names) !== null) edits.push(...minifiedQuasis(code, node.quasi));
    }
    if (node.type !== 'VariableDeclarator' || !isNode(node.id) || node.id.type !== 'Identifier') continue;
    const init = node.init;
    if (!isNode(init) || init.type !== 'TaggedTemplateExpression' || !isNode(init.tag)) continue;
    if (styledChain(init.tag, names) !== 'styled') continue;
    const base = `${hash}-${(node.id.name as string).replace(/[^\w-]/g, '_')}`;
    let id = base;
    for (let n = 2; ids.includes(id); n += 1) id = `${base}-${n}`;
    ids.push(id);
    // After the constructor and before any type arguments: `styled.button.withConfig(…)<P>\`…\``.
    const at = init.tag.end;
    edits.push({ start: at, end: at, text: `.withConfig({ componentId: ${JSON.stringify(id)} })` });
  }
  if (edits.length === 0) return null;
  let out = code;
  for (const { start, end, text } of edits.sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, start)}${text}${out.slice(end)}`;
  }
  return { code: out, ids };
}

/** The edits that minify a template literal's CSS in place; none when it is left alone. */
function minifiedQuasis(code: string, quasi: Node): { start: number; end: number; text: string }[] {
  const quasis = quasi.quasis as (Node & { value: { raw: string } })[];
  // A part's span starts at the backtick or the `}` before its text.
  const spans = quasis.map((part) => ({
    start: part.start + 1,
    end: part.start + 1 + part.value.raw.length,
  }));
  if (spans.some(({ start, end }, i) => code.slice(start, end) !== quasis[i]?.value.raw)) return [];
  const minified = minifyCss(quasis.map((part) => part.value.raw));
  if (!minified) return [];
  return spans.map(({ start, end }, i) => ({ start, end, text: minified[i] ?? '' }));
}

/** The transform as a Vite plugin, for the production build, the dev server and the prerender. */
export function styledIds(): Plugin {
  let root = process.cwd();
  return {
    name: 'ddex-styled-ids',
    // Before the TypeScript transform: the ids are the same whichever way the module is compiled after.
    enforce: 'pre',
    configResolved(config) {
      root = config.root;
    },
    transform: {
      filter: {
        id: { include: /\.[cm]?[jt]sx?(?:\?|$)/, exclude: /node_modules/ },
        code: 'styled-components',
      },
      handler(code, id) {
        const result = withStyledIds(code, id.replace(/\?.*$/, ''), root);
        // Text is only inserted, so lines keep their numbers; a null map keeps the earlier mappings.
        return result ? { code: result.code, map: null } : null;
      },
    },
  };
}
