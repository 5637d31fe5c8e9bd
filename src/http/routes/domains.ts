// /api/v1/domains: what Seedbed knows about one domain — its liveness, latest check and history.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LivenessService } from '../../services/liveness.js';
import { domainLivenessSchema } from '../response-schemas.js';
import { json, problems } from '../responses.js';
import { hostParam, paginationSchema } from '../schemas.js';

export async function domainRoutes(app: FastifyInstance, deps: { liveness: LivenessService }) {
  const { liveness } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/:domain/liveness',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['domains'],
        summary:
          'Liveness of a host, or of every host of a registrable domain: the latest check and the history, newest first',
        response: {
          200: json(domainLivenessSchema, 'The latest check and a page of the history'),
          ...problems(404),
        },
        params: z.object({ domain: hostParam }),
        querystring: paginationSchema,
      },
    },
    (request) => liveness.history(request.params.domain, request.query),
  );
}
