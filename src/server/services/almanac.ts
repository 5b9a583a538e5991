import { ALMANAC_BASE, API_MAP, AlmanacError } from '../../core/contract/almanac.js';
import type { ServiceModule } from '../service.js';

/**
 * Almanac's own endpoints and tools, beside the mirrored services: the map of the APIs this server
 * answers. Its envelope also answers every path outside the services (app.ts). A new endpoint is one
 * entry in `endpoints`, a new tool one entry in `tools`.
 */
const almanac: ServiceModule = () => ({
  name: 'almanac',
  prefix: ALMANAC_BASE,
  tag: 'almanac',
  endpoints: [{ path: '/', summary: 'Where each API of this server lives', handler: async () => ({ apis: API_MAP }) }],
  tools: [],
  notFound: (url) => new AlmanacError(404, `No endpoint at ${url.split('?')[0]}.`, undefined, API_MAP),
  refused: (err) => new AlmanacError(err.statusCode ?? 400, err.message),
});

export default almanac;
