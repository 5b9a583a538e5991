/// <reference types="vite/client" />

/** A hash of the app's sources (vite.build-id.ts). */
declare const __ALMANAC_BUILD__: string;
