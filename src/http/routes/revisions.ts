// /api/v1/seeds/:seedId/revisions: the history of a seed's contract, and a person's decision on what a contract
// run proposed (docs/design.md §3, docs/revisions.md).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SeedRevisionService } from '../../services/seed-revisions.js';
import { seedRevisionSchema, settledRevisionSchema } from '../response-schemas.js';
import { json, pageOf, problems } from '../responses.js';
import { noQuery, paginationSchema, queryInteger } from '../schemas.js';

const seedParams = z.object({ seedId: z.string().min(1).max(400) });
const revisionParams = seedParams.extend({
  n: queryInteger(1, 2_147_483_647).meta({ description: 'The revision number' }),
});

export async function revisionRoutes(app: FastifyInstance, deps: { revisions: SeedRevisionService }) {
  const { revisions } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['seeds'],
        summary: "Every revision of a seed's contract, oldest first: applied, proposed and settled",
        response: { 200: json(pageOf(seedRevisionSchema), 'A page of revisions'), ...problems(404) },
        params: seedParams,
        querystring: paginationSchema,
      },
    },
    (request) => revisions.list(request.params.seedId, request.query),
  );

  for (const decision of ['accept', 'reject'] as const) {
    r.post(
      `/:n/${decision}`,
      {
        config: { scope: 'write' },
        schema: {
          querystring: noQuery,
          tags: ['seeds'],
          summary:
            decision === 'accept'
              ? 'Accept a proposed revision: the seed takes its changes'
              : 'Reject a proposed revision: the seed stays as it is',
          response: {
            200: json(settledRevisionSchema, 'The settled revision and the seed version after it'),
            ...problems(404, 409),
          },
          params: revisionParams,
        },
      },
      (request) => {
        const by = request.principal?.name ?? 'anonymous';
        const { seedId, n } = request.params;
        return decision === 'accept' ? revisions.accept(seedId, n, by) : revisions.reject(seedId, n, by);
      },
    );
  }
}
