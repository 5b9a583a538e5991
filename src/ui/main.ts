import { mount } from 'svelte';
import { startEngine } from './lib/engine.svelte.js';
import { route } from './lib/router.svelte.js';
import './styles.css';

// The service worker (vite-plugin-pwa's sw.js, in builds only) is registered here, not by a script tag
// of its own: the page runs only the loader its CSP allows by hash (src/ui/page-script.ts). After the
// page's load, so it does not compete with it; this module is inserted by the loader, so the load event
// may already be past.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () => void navigator.serviceWorker.register('./sw.js', { scope: './' });
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}

// The engine's worker starts before the views' code is loaded: starting DuckDB-WASM (its wasm
// compiled and instantiated, the store's files attached) is the longest part of a start, and it runs
// in its worker while this thread loads and mounts the views. Unless the first view draws from an
// answer kept for this data generation (a scheme's page, an indicators view): then right after it.
const [view, item] = route.parts;
void startEngine((view === 'funds' && item !== undefined) || view === 'indicators');
const { default: App } = await import('./App.svelte');
mount(App, { target: document.getElementById('app')! });
