/**
 * Whether the app's query engine is up, for the nav bar. A module of its own: the backend factory
 * (backend.ts) writes the note, and engine.svelte.ts, which asks that factory, the status.
 */
/** `note`: why it is still starting (another tab holds the store). */
export const engineState = $state<{ status: 'starting' | 'ready' | 'error'; error?: string; note?: string }>({ status: 'starting' });
