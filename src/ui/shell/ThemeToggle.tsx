import { shellCopy } from '../../copy/index.ts';
import { useChild, useChildSelector } from '../portal-context.tsx';
import { HeaderIconButton } from './HeaderIconButton.tsx';
import { MoonIcon, SunIcon } from './icons.tsx';

// Always visible (docs/product.md#header). Its name says what pressing it does, and so does
// its icon; the theme machine stores the choice.
export function ThemeToggle() {
  const theme = useChild('theme');
  const dark = useChildSelector('theme', (snapshot) => snapshot.matches('dark'));
  const label = dark ? shellCopy.themeToLight : shellCopy.themeToDark;
  return (
    <HeaderIconButton
      type="button"
      aria-label={label}
      title={label}
      onClick={() => theme.send({ type: 'theme.toggle' })}
    >
      {dark ? <SunIcon /> : <MoonIcon />}
    </HeaderIconButton>
  );
}
