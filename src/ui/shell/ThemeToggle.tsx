import styled from 'styled-components';
import { shellCopy } from '../../copy/index.ts';
import { useChild, useChildSelector } from '../portal-context.tsx';
import { HeaderIconButton } from './HeaderIconButton.tsx';
import { MoonIcon, SunIcon } from './icons.tsx';

// Always visible (docs/product.md#header). Its name says what pressing it does, and so does
// its icon; the theme machine stores the choice. Both icons are in the markup and html[data-theme]
// (set by index.html's theme script before the first paint) shows one: the page's HTML, rendered at
// build time without knowing the visitor's theme (src/prerender.tsx), shows the right one at once.
export function ThemeToggle() {
  const theme = useChild('theme');
  const dark = useChildSelector('theme', (snapshot) => snapshot.matches('dark'));
  const label = dark ? shellCopy.themeToLight : shellCopy.themeToDark;
  return (
    <Toggle
      type="button"
      aria-label={label}
      title={label}
      onClick={() => theme.send({ type: 'theme.toggle' })}
    >
      <SunIcon />
      <MoonIcon />
    </Toggle>
  );
}

/** The sun (first) in the dark theme, the moon (last) otherwise. */
const Toggle = styled(HeaderIconButton)`
  html[data-theme='dark'] & > :last-child,
  html:not([data-theme='dark']) & > :first-child {
    display: none;
  }
`;
