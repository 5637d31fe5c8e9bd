// The documented API as fastify plugins: health and the summary at the root, and every group under /api/v1
// with its own prefix. The operation defaults (operation-defaults.ts) are an onRoute hook of this plugin's
// context: they reach every operation registered here, and nothing outside it (the review page, /docs, /metrics).
import type { FastifyInstance } from 'fastify';
import type { HttpDeps } from '../app.js';
import { registerOperationDefaults } from '../operation-defaults.js';
import { candidateRoutes, discoveryQueueRoutes } from './candidates.js';
import { changeRoutes } from './changes.js';
import { datasetRoutes, datasetUploadRoutes } from './datasets.js';
import { domainRoutes } from './domains.js';
import { healthRoutes } from './health.js';
import { metadataRoutes } from './metadata.js';
import { API_V1 } from './paths.js';
import { queueRoutes } from './queues.js';
import { recheckRoutes } from './recheck.js';
import { researchRoutes } from './research.js';
import { revisionRoutes } from './revisions.js';
import { seedImportRoutes } from './seed-import.js';
import { seedRoutes } from './seeds.js';

export interface ApiOptions
  extends Pick<HttpDeps, 'name' | 'version' | 'limits' | 'services' | 'today' | 'clock'> {
  /** Every endpoint, for the summary at /. */
  endpoints: () => Array<{ method: string; path: string }>;
  /** The text of GET /health, shared with the server's fast path so both answer alike. */
  healthBody: () => string;
}

export async function apiRoutes(app: FastifyInstance, options: ApiOptions): Promise<void> {
  const { services, limits } = options;
  registerOperationDefaults(app);
  await app.register(healthRoutes, {
    health: services.health,
    name: options.name,
    version: options.version,
    endpoints: options.endpoints,
    healthBody: options.healthBody,
  });
  await app.register(
    async (v1) => {
      // The order is the order GET / lists them in.
      await v1.register(queueRoutes, {
        prefix: '/queues',
        batches: services.batches,
        metadata: services.metadata,
        today: options.today,
      });
      await v1.register(datasetRoutes, { prefix: '/datasets', datasets: services.datasets });
      await v1.register(metadataRoutes, { prefix: '/metadata', metadata: services.metadata });
      await v1.register(researchRoutes, { prefix: '/research', research: services.research });
      await v1.register(seedRoutes, {
        prefix: '/seeds',
        seeds: services.seeds,
        seedActions: services.seedActions,
        orchestration: services.orchestration,
        evidence: services.evidence,
        clock: options.clock,
      });
      // The import reads its own body (a stream of JSON lines), in a plugin of its own.
      await v1.register(seedImportRoutes, {
        prefix: '/seeds',
        seeds: services.seeds,
        maxImportBytes: limits.maxImportBytes,
      });
      await v1.register(revisionRoutes, {
        prefix: '/seeds/:seedId/revisions',
        revisions: services.seeds.revisions,
      });
      await v1.register(changeRoutes, { prefix: '/changes', changes: services.changes });
      await v1.register(recheckRoutes, { prefix: '/queues', recheck: services.recheck });
      await v1.register(domainRoutes, { prefix: '/domains', liveness: services.liveness });
      await v1.register(discoveryQueueRoutes, { prefix: '/queues', discovery: services.discovery });
      await v1.register(candidateRoutes, { prefix: '/candidates', candidates: services.candidates });
      // Last, as GET / has always listed it: the upload, with its own body parser.
      await v1.register(datasetUploadRoutes, {
        prefix: '/datasets',
        datasets: services.datasets,
        maxDatasetBytes: limits.maxDatasetBytes,
        maxConcurrentUploads: limits.maxConcurrentUploads,
      });
    },
    { prefix: API_V1 },
  );
}
