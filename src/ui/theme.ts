// The portal's look, light and dark. Colours are CSS custom properties set per
// `html[data-theme]` (GlobalStyle), so index.html can pick the theme before
// React loads and nothing flashes. Components import this theme object and write its values
// straight into their styles, e.g. `${theme.color.text}`: the object never changes (a theme switch
// changes only the variables' values), and styles without a function interpolation are static to
// styled-components, which then works out their CSS once instead of on every render.

const palette = {
  light: {
    bg: '#f6f7fb',
    surface: '#ffffff',
    surfaceAlt: '#eef0f6',
    text: '#141824',
    textMuted: '#4f566b',
    border: '#d5d9e4',
    accent: '#4338ca',
    accentText: '#ffffff',
    danger: '#b91c1c',
    dangerText: '#ffffff',
    success: '#15803d',
    warningBg: '#fff4d6',
    warningText: '#6b4700',
    focus: '#2563eb',
    overlay: 'rgba(10, 12, 20, 0.55)',
  },
  dark: {
    bg: '#0d1017',
    surface: '#161b26',
    surfaceAlt: '#1e2533',
    text: '#eef1f8',
    textMuted: '#a9b1c4',
    border: '#2d3545',
    accent: '#8b93ff',
    accentText: '#0d1017',
    danger: '#f87171',
    dangerText: '#0d1017',
    success: '#4ade80',
    warningBg: '#3a2e0b',
    warningText: '#ffe08a',
    focus: '#93b4ff',
    overlay: 'rgba(0, 0, 0, 0.7)',
  },
} as const;

export type ColorName = keyof (typeof palette)['light'];

export function cssVariables(mode: 'light' | 'dark'): string {
  return Object.entries(palette[mode])
    .map(([name, value]) => `--color-${name}: ${value};`)
    .join('\n');
}

const color = Object.fromEntries(
  Object.keys(palette.light).map((name) => [name, `var(--color-${name})`]),
) as Record<ColorName, string>;

/** Widest phone layout; the portal must work from 360 px up. */
export const PHONE_QUERY = '(max-width: 640px)';

export const theme = {
  color,
  radius: { sm: '6px', md: '10px', lg: '16px', pill: '999px' },
  space: (n: number) => `${n * 4}px`,
  font: {
    body: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    mono: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
  },
  shadow: '0 1px 2px rgba(0, 0, 0, 0.08), 0 8px 24px rgba(0, 0, 0, 0.08)',
  /** Styles for a phone (PHONE_QUERY); `usePhoneLayout` says the same to a view's code. */
  phone: `@media ${PHONE_QUERY}`,
} as const;

export type PortalTheme = typeof theme;
