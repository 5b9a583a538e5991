import type { FastifyInstance } from 'fastify';
import type { ServerDeps } from '../deps.js';

export type RouteModule = (app: FastifyInstance, deps: ServerDeps) => Promise<void> | void;

/** One line per service: each module registers its routes (and its own error envelope). */
export const routeModules: Array<() => Promise<RouteModule>> = [
  () => import('./mf.js').then((m) => m.default),
  () => import('./flags.js').then((m) => m.default),
  () => import('./indicators.js').then((m) => m.default),
  () => import('./compare.js').then((m) => m.default),
  () => import('./almanac.js').then((m) => m.default),
];
