// Electron main: window creation and wiring only. Everything else (store, sync, queries, the local
// server, settings, the security policy) lives in src/desktop/, built to dist-electron/ and tested in Node.
const { app, BrowserWindow, ipcMain, session, shell } = require('electron');
const path = require('node:path');

app.enableSandbox();

async function main() {
  const desktop = await import(path.join(__dirname, '..', 'dist-electron', 'desktop.mjs'));
  await app.whenReady();
  const core = await desktop.startDesktopCore({ userDataDir: app.getPath('userData') });
  const appUrl = `file://${path.join(__dirname, '..', 'dist', 'index.html')}`;

  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [desktop.CONTENT_SECURITY_POLICY] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));

  for (const channel of desktop.CHANNELS) {
    ipcMain.handle(channel, (event, args) => {
      if (!desktop.isInternalUrl(event.senderFrame.url, appUrl)) throw new Error('IPC from outside the app');
      return core.handle(channel, args, (progress) => event.sender.send('sync:progress', progress));
    });
  }

  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!desktop.isInternalUrl(url, appUrl)) event.preventDefault();
    });
    contents.setWindowOpenHandler(({ url }) => {
      if (desktop.isAllowedExternalUrl(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  const win = new BrowserWindow({
    width: 1360,
    height: 880,
    title: 'Almanac',
    webPreferences: { ...desktop.WEB_PREFERENCES, preload: path.join(__dirname, 'preload.cjs') },
  });
  await win.loadURL(appUrl);
  app.on('window-all-closed', () => {
    void core.close().finally(() => app.quit());
  });
}

main().catch((err) => {
  console.error(err);
  app.exit(1);
});
