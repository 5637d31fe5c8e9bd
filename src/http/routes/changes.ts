// /api/v1/changes: differences between two discoveries of a domain (feeds, robots.txt, news sitemaps, AI
// crawlers, TDM, the site's state), oldest first, each with its evidence (docs/revisions.md).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHANGE_KINDS } from '../../engine/discovery-changes.js';
import type { ChangeService } from '../../services/changes.js';
import { domainChangeSchema } from '../response-schemas.js';
import { cursorPageOf, json } from '../responses.js';
import { cursorPaginationSchema } from '../schemas.js';

export async function changeRoutes(app: FastifyInstance, deps: { changes: ChangeService }) {
  const { changes } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['seeds'],
        summary:
          'Changes found between two discoveries of a domain, oldest first (by detection time, then id)',
        response: { 200: json(cursorPageOf(domainChangeSchema), 'A page of changes') },
        querystring: cursorPaginationSchema.extend({
          since: z.iso
            .datetime({ offset: true })
            .optional()
            .meta({ description: 'Only changes detected at or after this time' }),
          domain: z
            .string()
            .trim()
            .toLowerCase()
            .min(1)
            .max(253)
            .optional()
            .meta({ description: 'A registrable domain' }),
          kind: z.enum(CHANGE_KINDS).optional(),
        }),
      },
    },
    (request) => {
      const { since, ...rest } = request.query;
      return changes.list({ ...rest, ...(since ? { since: new Date(since).toISOString() } : {}) });
    },
  );
}
