import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { PROJECT_DIR } from '../../scripts/lib/portal-build.ts';
import { fileHash, minifyCss, withStyledIds } from '../../scripts/lib/styled-ids.ts';

// The build gives every styled component a componentId of its own (scripts/lib/styled-ids.ts), so
// the prerendered HTML and the bundle agree on class names whatever order they create them in.

const FILE = join(PROJECT_DIR, 'src/ui/x/Thing.tsx');
const ID = fileHash(FILE, PROJECT_DIR);

const transformed = (code: string) => withStyledIds(code, FILE, PROJECT_DIR);

describe('styled ids: the shapes of a declaration', () => {
  it('configures styled.tag, styled(Comp), type arguments and .attrs', () => {
    const code = [
      `import styled from 'styled-components';`,
      `// ‘Quotes’ and … before: offsets are in characters.`,
      'const A = styled.div`color: red;`;',
      'export const B = styled(A)`margin: 0;`;',
      'const C = styled.button<{ $on: boolean }>`opacity: ${({ $on }) => ($on ? 1 : 0)};`;',
      "const D = styled(A).attrs({ as: 'section' })`padding: 0;`;",
    ].join('\n');
    const result = transformed(code);
    expect(result?.ids).toEqual([`${ID}-A`, `${ID}-B`, `${ID}-C`, `${ID}-D`]);
    const out = result?.code ?? '';
    expect(out).toContain(`const A = styled.div.withConfig({ componentId: "${ID}-A" })\`color:red;\``);
    expect(out).toContain(`styled(A).withConfig({ componentId: "${ID}-B" })\`margin:0;\``);
    expect(out).toContain(`styled.button.withConfig({ componentId: "${ID}-C" })<{ $on: boolean }>\``);
    expect(out).toContain(`.attrs({ as: 'section' }).withConfig({ componentId: "${ID}-D" })\``);
    expect(() => parseAst(out, { lang: 'tsx' })).not.toThrow();
  });

  it('follows a renamed import and leaves other templates and configured components alone', () => {
    const code = [
      `import sc, { css, keyframes } from 'styled-components';`,
      'const spin = keyframes`to { transform: rotate(1turn); }`;',
      'const mixin = css`color: red;`;',
      "const Given = sc.div.withConfig({ componentId: 'given' })`color: blue;`;",
      'const Mine = sc.p`margin: 0;`;',
    ].join('\n');
    expect(transformed(code)?.ids).toEqual([`${ID}-Mine`]);
    expect(transformed(`const styled = (x: string) => x;\nconst A = styled\`no\`;`)).toBeNull();
  });

  it('hashes the path from the project root, so every checkout agrees', () => {
    expect(fileHash(FILE, PROJECT_DIR)).toBe(fileHash(`/elsewhere/src/ui/x/Thing.tsx`, '/elsewhere'));
    expect(fileHash(FILE, PROJECT_DIR)).toMatch(/^[a-z][0-9a-f]{6}$/);
    expect(fileHash(join(PROJECT_DIR, 'src/ui/x/Other.tsx'), PROJECT_DIR)).not.toBe(ID);
  });
});

describe('styled ids: the CSS of the templates', () => {
  it('drops comments and the whitespace CSS ignores, and keeps the spaces that are selectors', () => {
    const parts = [
      '\n  /* why */\n  display: flex;\n  gap: ',
      ' ',
      ';\n  font-family: a, b;\n  & > :last-child,\n  a :hover {\n    margin: 0 auto;\n  }\n',
    ];
    expect(minifyCss(parts)).toEqual([
      'display:flex;gap:',
      ' ',
      ';font-family:a,b;& > :last-child,a :hover{margin:0 auto;}',
    ]);
  });

  it('keeps quoted text as written, and leaves alone what it cannot be sure of', () => {
    expect(minifyCss([`grid-template-areas: 'a  b'\n  'c d';`])).toEqual([
      `grid-template-areas:'a  b' 'c d';`,
    ]);
    expect(minifyCss(['a: b; // a line comment\n c: d;'])).toBeNull();
    expect(minifyCss(['content: "\\201C";'])).toBeNull();
    expect(minifyCss(['background: url(data:image/svg+xml;utf8,<svg a="1"/>);'])).toBeNull();
    expect(minifyCss(["content: '", "';"])).toEqual(["content:'", "';"]);
  });

  it('minifies the templates of styled components, css, keyframes and createGlobalStyle', () => {
    const code = [
      `import styled, { css, keyframes, createGlobalStyle } from 'styled-components';`,
      'const spin = keyframes`\n  to { transform: rotate(1turn); }\n`;',
      'const Global = createGlobalStyle`\n  body { margin: 0; }\n`;',
      'const A = styled.div`\n  color: red;\n  ${({ $on }) => $on && css`\n    opacity: 1;\n  `}\n`;',
      'const other = tag`\n  left:   alone;\n`;',
    ].join('\n');
    const out = transformed(code)?.code ?? '';
    expect(out).toContain('keyframes`to{transform:rotate(1turn);}`');
    expect(out).toContain('createGlobalStyle`body{margin:0;}`');
    expect(out).toContain('`color:red;${({ $on }) => $on && css`opacity:1;`}`');
    expect(out).toContain('tag`\n  left:   alone;\n`');
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('styled ids: every styled component under src/', () => {
  const files = sourceFiles(join(PROJECT_DIR, 'src'));
  const results = files.map((file) => {
    const code = readFileSync(file, 'utf8');
    // Counted apart from the transform's parser: a declaration whose value starts at `styled`.
    const declared = code.match(/\b(?:const|let)\s+[\w$]+\s*=\s*styled\s*[.(]/g)?.length ?? 0;
    return { file, declared, result: withStyledIds(code, file, PROJECT_DIR) };
  });

  it('gets a componentId', () => {
    const missed = results
      .filter(({ declared, result }) => declared !== (result?.ids.length ?? 0))
      .map(({ file, declared, result }) => `${file}: ${declared} declared, ${result?.ids.length ?? 0} ids`);
    expect(missed).toEqual([]);
    // The portal has some two hundred of them; a parser that found none would pass the line above.
    expect(results.reduce((sum, { declared }) => sum + declared, 0)).toBeGreaterThan(150);
  });

  it('has an id no other component has', () => {
    const ids = results.flatMap(({ result }) => result?.ids ?? []);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
