import 'styled-components';
import type { PortalTheme } from './theme.ts';

declare module 'styled-components' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augmenting the library's theme type
  export interface DefaultTheme extends PortalTheme {}
}
