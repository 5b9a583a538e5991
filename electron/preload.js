// The renderer's only door to the desktop core: a fixed list of channels, no Node, no ipcRenderer.
const { contextBridge, ipcRenderer } = require('electron');

// The same list as src/desktop/channels.ts (a sandboxed preload can require only 'electron'; a test keeps them equal).
const CHANNELS = [
  'engine:all',
  'engine:arrow',
  'engine:exec',
  'settings:get',
  'settings:set',
  'server:status',
  'source:manifest',
  'store:delete',
  'store:import-amfi',
  'store:import-prices',
  'sync:cancel',
  'sync:run',
  'sync:status',
  'watch:export',
  'watch:import',
  'watch:list',
  'watch:set',
  'watch:status',
  'changes:get',
];

contextBridge.exposeInMainWorld('almanacDesktop', {
  invoke(channel, args) {
    if (!CHANNELS.includes(channel)) return Promise.reject(new Error(`unknown channel ${channel}`));
    return ipcRenderer.invoke(channel, args);
  },
  onSyncProgress(listener) {
    const wrapped = (_event, progress) => listener(progress);
    ipcRenderer.on('sync:progress', wrapped);
    return () => ipcRenderer.removeListener('sync:progress', wrapped);
  },
});
