export type Theme = 'light' | 'dark';

const stored = localStorage.getItem('almanac-theme');
const initial: Theme =
  stored === 'light' || stored === 'dark' ? stored : matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';

export const theme = $state({ value: initial });

export function applyTheme(t: Theme): void {
  theme.value = t;
  document.documentElement.dataset.theme = t;
  localStorage.setItem('almanac-theme', t);
}

applyTheme(initial);
