export type Theme = 'light' | 'dark';
/** What the user picked: a fixed theme, or the system's, followed live. */
export type ThemeChoice = Theme | 'system';

const KEY = 'almanac-theme';
/**
 * The browser chrome's colour (the `theme-color` metas in index.html, one per system scheme): the
 * navigation's background (--nav-bg), so a phone's status bar and an installed app's title bar run
 * into the app's top bar.
 */
const CHROME: Record<Theme, string> = { light: '#15202b', dark: '#0b1015' };

const system = matchMedia('(prefers-color-scheme: dark)');
const stored = localStorage.getItem(KEY);
const initial: ThemeChoice = stored === 'light' || stored === 'dark' ? stored : 'system';

/** `value` is the theme shown (what charts and the editor colour by); `choice` what the user picked. */
export const theme = $state<{ value: Theme; choice: ThemeChoice }>({ value: 'light', choice: initial });

function show(): void {
  const t: Theme = theme.choice === 'system' ? (system.matches ? 'dark' : 'light') : theme.choice;
  theme.value = t;
  document.documentElement.dataset.theme = t;
  // Both metas stay (each for its system scheme, so the colour is right before this script runs);
  // a fixed choice gives both its own colour, "System" gives each back its own.
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    const scheme: Theme = meta.media.includes('dark') ? 'dark' : 'light';
    meta.content = CHROME[theme.choice === 'system' ? scheme : t];
  }
}

export function applyTheme(choice: ThemeChoice): void {
  theme.choice = choice;
  if (choice === 'system') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, choice);
  show();
}

// The system's scheme changes while the app is open (a phone at dusk, a desktop's schedule).
system.addEventListener('change', () => {
  if (theme.choice === 'system') show();
});

show();
