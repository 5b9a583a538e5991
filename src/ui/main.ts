import { mount } from 'svelte';
import { getEngine } from './lib/engine.svelte.js';
import './styles.css';

// The engine's worker starts before the views' code is loaded: starting DuckDB-WASM (its wasm
// compiled and instantiated, the store's files attached) is the longest part of a start, and it runs
// in its worker while this thread loads and mounts the views.
void getEngine().catch(() => {});
const { default: App } = await import('./App.svelte');
mount(App, { target: document.getElementById('app')! });
