/** The app's answers kept per data generation (src/ui/lib/answer-cache.ts), as tests and the bench see them. */
export const ANSWERS_DB = 'almanac-answers';

/**
 * In the page: how many answers the app keeps (its index record not counted). page.evaluate it
 * (the app's CSP refuses eval).
 */
export const KEPT_ANSWERS = `new Promise((resolve) => {
  const open = indexedDB.open(${JSON.stringify(ANSWERS_DB)});
  open.onerror = () => resolve(0);
  // Not created here when the app has not created it yet (it would lack the app's object store).
  open.onupgradeneeded = () => open.transaction.abort();
  open.onsuccess = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains('answers')) return (db.close(), resolve(0));
    const count = db.transaction('answers').objectStore('answers').count();
    count.onsuccess = () => (db.close(), resolve(Math.max(0, count.result - 1)));
    count.onerror = () => (db.close(), resolve(0));
  };
})`;
