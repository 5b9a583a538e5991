// Electron main: window creation and wiring only. Everything else (store, sync, queries, the local
// server, settings, the app:// protocol, the security policy) lives in src/desktop/, built to
// dist-electron/ and tested in Node. The security settings are written out literally here, where
// scanners such as electronegativity read them; test/desktop/shell.test.ts keeps them equal to the
// policy in src/desktop/security.ts and runs the scanner on this directory.
const { app, BrowserWindow, ipcMain, protocol, session, shell } = require('electron');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

app.enableSandbox();
// Before ready: the app's own scheme is a standard, secure origin (relative URLs, storage, fetch).
protocol.registerSchemesAsPrivileged([
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
]);

async function main() {
  const desktop = await import(pathToFileURL(path.join(__dirname, '..', 'dist-electron', 'desktop.mjs')).href);
  await app.whenReady();
  const dist = path.join(__dirname, '..', 'dist');
  protocol.handle(desktop.APP_SCHEME, (request) =>
    desktop.appResponse({
      dist,
      url: request.url,
      responseHeaders: {
        'Content-Security-Policy': [
          "default-src 'self'; script-src 'sha256-HL2QziwZj0cK7mIqjNEL7rQ3UsTShSnvtZjy7DkFTyY=' 'strict-dynamic' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
        ],
      },
    }),
  );
  const core = await desktop.startDesktopCore({ userDataDir: app.getPath('userData') });

  // Notifications only for the app's own page: the policy takes who asks (src/desktop/security.ts).
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback, details) =>
    callback(desktop.isAllowedPermission(permission, details?.requestingUrl ?? '', desktop.APP_URL)),
  );
  session.defaultSession.setPermissionCheckHandler((_wc, permission, requestingOrigin) =>
    desktop.isAllowedPermission(permission, requestingOrigin ?? '', desktop.APP_URL),
  );

  const answer = desktop.ipcAnswerer(core, desktop.APP_URL);
  for (const channel of desktop.CHANNELS) {
    ipcMain.handle(channel, (event, args) =>
      answer(event.senderFrame?.url ?? '', channel, args, (name, payload) => event.sender.send(name, payload)),
    );
  }

  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!desktop.isInternalUrl(url, desktop.APP_URL)) event.preventDefault();
    });
    contents.setWindowOpenHandler(({ url }) => {
      void desktop.openIfAllowed(url, shell.openExternal.bind(shell));
      return { action: 'deny' };
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  const win = new BrowserWindow({
    width: 1360,
    height: 880,
    title: 'Almanac',
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
      disableBlinkFeatures: 'Auxclick',
      preload: path.join(__dirname, 'preload.js'),
    },
  });
  await win.loadURL(desktop.APP_URL);
  app.on('window-all-closed', () => {
    void core.close().finally(() => app.quit());
  });
}

main().catch((err) => {
  console.error(err);
  app.exit(1);
});
