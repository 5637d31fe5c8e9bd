// POST /api/v1/queues/recheck: a person sends active seeds back through the contract pipeline now, instead of
// waiting for their tick of SEEDBED_RECHECK_CRON (docs/design.md §11). One batch of type `recheck` per (country, category).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { categorySchema, countrySchema } from '../../domain/identifiers.js';
import type { RecheckService } from '../../services/recheck.js';
import { batchSchema } from '../response-schemas.js';
import { json, problems } from '../responses.js';
import { noQuery } from '../schemas.js';

export const recheckRequestSchema = z
  .object({
    country: countrySchema.optional(),
    category: categorySchema.optional(),
    seedIds: z.array(z.string().min(1).max(512)).min(1).max(10_000).optional().meta({
      description: 'Only these seeds (those not active are left out)',
    }),
  })
  .strict()
  .meta({
    id: 'RecheckRequest',
    description: 'Which active seeds to re-check now; every active seed when empty',
  });

const recheckPlanSchema = z
  .object({
    tick: z.string().nullable().meta({ description: 'The schedule tick; null for a request' }),
    seeds: z.number().int().meta({ description: 'Active seeds sent to be re-checked' }),
    batches: z.array(batchSchema).meta({ description: 'One recheck batch per country and category' }),
  })
  .meta({ id: 'RecheckPlan' });

export async function recheckRoutes(app: FastifyInstance, deps: { recheck: RecheckService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/recheck',
    {
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['queues'],
        summary: 'Re-check active seeds now (batches of type recheck through the contract pipeline)',
        body: recheckRequestSchema,
        response: { 202: json(recheckPlanSchema, 'The recheck batches made'), ...problems(422) },
      },
    },
    async (request, reply) => reply.code(202).send(await deps.recheck.recheckNow(request.body)),
  );
}
