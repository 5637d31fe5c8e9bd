// Promote and archive, on a selection or on every seed a filter matches (docs/api.md, "Promote and archive"): the
// request shapes, the sizes that decide between an answer at once and a batch, and the answer per seed. Pure.
import { z } from 'zod';
import { SOURCE_TYPES } from './domains.js';
import { categorySchema, countrySchema } from './identifiers.js';
import {
  aiFilterSchema,
  freshnessFilterSchema,
  healthFilterSchema,
  languageFilterSchema,
  type SeedStatus,
  verdictFilterSchema,
} from './seeds.js';

export const SEED_ACTIONS = ['promote', 'archive'] as const;
export type SeedAction = (typeof SEED_ACTIONS)[number];

/**
 * Up to this many seeds, an action is done in the request (one transaction) and answered per seed; a filter
 * matching more becomes a batch. As many as `seedIds` may name, so a selection is always answered at once.
 */
export const AT_ONCE_LIMIT = 1000;
/** Seeds per chunk of a promote or archive batch: one transaction each (as an import's group). */
export const SEED_ACTION_CHUNK_SIZE = 500;
/**
 * Matches read per step of a batch (keyset, after the last seed id read): the batch holds this many items ahead
 * of its workers at most, whatever the number of matches.
 */
export const SEED_ACTION_READ_AHEAD = 2000;
/** The most a `limit` may ask for (the directory is sized for a million seeds). */
export const MAX_ACTION_LIMIT = 1_000_000;

const filterFields = {
  country: countrySchema.optional(),
  category: categorySchema.optional(),
  source_type: z.enum(SOURCE_TYPES).optional(),
  robots_allowed: z.boolean().optional(),
  language: languageFilterSchema.optional(),
  ai: aiFilterSchema.optional(),
  freshness: freshnessFilterSchema.optional(),
  health: healthFilterSchema.optional(),
  verdict: verdictFilterSchema.optional(),
};
const FILTER_NAMES = Object.keys(filterFields).join(', ');

const seedIdsSchema = z
  .array(z.string().min(1).max(400))
  .min(1)
  .max(AT_ONCE_LIMIT)
  .optional()
  .meta({ description: `Explicit seeds (at most ${AT_ONCE_LIMIT}), answered at once` });

const limitSchema = z.number().int().min(1).max(MAX_ACTION_LIMIT).optional().meta({
  description:
    'With a filter: cover only the first `limit` matches by seed id. Left out (the default): every match',
});

const oneOf = (body: { seedIds?: unknown; filter?: unknown }) =>
  (body.seedIds === undefined) !== (body.filter === undefined);
const ONE_OF = { message: 'give either seedIds or filter, not both' };

export const promoteSchema = z
  .object({
    seedIds: seedIdsSchema,
    filter: z
      .object(filterFields)
      .strict()
      .refine((filter) => Object.keys(filter).length > 0, {
        message: `name at least one of ${FILTER_NAMES}`,
      })
      .optional()
      .meta({ description: 'Every draft the seed list shows for this filter' }),
    limit: limitSchema,
  })
  .strict()
  .refine(oneOf, ONE_OF)
  .meta({ id: 'PromoteRequest' });
export type PromoteRequest = z.infer<typeof promoteSchema>;

/** The statuses archive by filter may name: an archived seed is never archived again. */
export const ARCHIVABLE_STATUSES = ['draft', 'active', 'suspended'] as const;

export const archiveSchema = z
  .object({
    seedIds: seedIdsSchema,
    filter: z
      .object({ ...filterFields, status: z.enum(ARCHIVABLE_STATUSES).optional() })
      .strict()
      .refine((filter) => Object.keys(filter).length > 0, {
        message: `name at least one of ${FILTER_NAMES}, status`,
      })
      .optional()
      .meta({ description: 'Every seed the seed list shows for this filter, but those archived already' }),
    limit: limitSchema,
  })
  .strict()
  .refine(oneOf, ONE_OF)
  .meta({ id: 'ArchiveRequest' });
export type ArchiveRequest = z.infer<typeof archiveSchema>;

/** One seed's answer: moved, or skipped with the reason. */
export interface SeedActionAnswer {
  seed_id: string;
  result: 'promoted' | 'archived' | 'skipped';
  reason?: string;
  status?: SeedStatus;
}

/** The outcome word a batch item carries (counted in the batch's summary). */
export type SeedActionOutcome =
  | 'promoted'
  | 'archived'
  | 'not_found'
  | 'not_draft'
  | 'already_archived'
  | 'no_longer_matches';

/**
 * What the action does to a seed in this status (`null`: no such seed; `matches: false`: the seed stopped matching
 * the filter between the read that listed it and the write): the seed state machine, draft → active only through
 * promote, any → archived, nothing leaves archived.
 */
export function decideAction(
  action: SeedAction,
  seedId: string,
  status: SeedStatus | null,
  matches = true,
): { answer: SeedActionAnswer; outcome: SeedActionOutcome } {
  if (status === null)
    return { answer: { seed_id: seedId, result: 'skipped', reason: 'not found' }, outcome: 'not_found' };
  if (!matches) {
    const reason = `no longer matches the filter (status is ${status})`;
    return { answer: { seed_id: seedId, result: 'skipped', reason, status }, outcome: 'no_longer_matches' };
  }
  if (action === 'promote') {
    if (status === 'draft')
      return { answer: { seed_id: seedId, result: 'promoted', status: 'active' }, outcome: 'promoted' };
    const reason = `status is ${status}; only drafts are promoted`;
    return { answer: { seed_id: seedId, result: 'skipped', reason, status }, outcome: 'not_draft' };
  }
  if (status === 'archived') {
    const reason = 'already archived';
    return { answer: { seed_id: seedId, result: 'skipped', reason, status }, outcome: 'already_archived' };
  }
  return { answer: { seed_id: seedId, result: 'archived', status: 'archived' }, outcome: 'archived' };
}
