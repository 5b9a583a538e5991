import type { Plugin } from 'vite';

/** The sources index.html's CSP lets the app fetch from when nothing else is configured: loopback. */
const LOOPBACK = "connect-src 'self' http://127.0.0.1:* http://localhost:*";

/**
 * The page's CSP `connect-src`, from configuration: a static build for another host names the origins
 * its sources live at (`ALMANAC_CONNECT_SRC="https://data.example.org" npm run build`). 'self' stays,
 * so sources behind the host's own reverse proxy (/publisher) need nothing. Unset: the loopback
 * default that `npm start` and the tests use.
 */
export function connectSrc(origins: string | undefined): Plugin {
  const list = (origins ?? '').split(/[\s,]+/).filter(Boolean);
  for (const o of list) {
    if (!/^https?:\/\/[A-Za-z0-9.-]+(:\d+)?$/.test(o)) throw new Error(`ALMANAC_CONNECT_SRC: "${o}" is not an origin (scheme://host[:port])`);
  }
  return {
    name: 'almanac-connect-src',
    transformIndexHtml(html) {
      if (list.length === 0) return html;
      if (!html.includes(LOOPBACK)) throw new Error(`index.html's CSP no longer reads "${LOOPBACK}"`);
      return html.replace(LOOPBACK, `connect-src 'self' ${list.join(' ')}`);
    },
  };
}
