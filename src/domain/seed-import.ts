// A bulk import of seeds (POST /api/v1/seeds/import): what one line may hold, what each line is answered, and the
// trailer that ends the answers. Pure: the body is read by http/ndjson-lines.ts, the lines written by
// services/seed-import.ts. A line is a seed as POST /seeds takes it, so an export (GET /seeds/export, a Seed a
// line) is imported as it is.
import { z } from 'zod';
import type { FieldError } from './errors.js';
import type { RevisionValues } from './seed-diff.js';
import { type SeedCreateRequest, seedCreateSchema } from './seeds.js';

export const IMPORT_RESULTS = ['created', 'unchanged', 'proposed', 'rejected'] as const;
export type ImportResult = (typeof IMPORT_RESULTS)[number];

/** A line of the body as read: a parsed JSON value, or why it could not be read (bad JSON, too long, not UTF-8). */
export type ImportLine =
  | { line: number; value: unknown }
  | { line: number; unreadable: string; errors?: FieldError[] };

export interface ImportAnswer {
  line: number;
  seed_id: string | null;
  result: ImportResult;
  reason?: string;
  errors?: FieldError[];
  proposed_revision?: number;
}

export type ImportCounts = Record<ImportResult, number> & { lines: number };

export const importAnswerSchema = z
  .object({
    line: z
      .number()
      .int()
      .meta({ description: 'The line of the body, from 1 (blank lines count, unanswered)' }),
    seed_id: z
      .string()
      .nullable()
      .meta({ description: 'The seed the line names; null when it names none that can be read' }),
    result: z.enum(IMPORT_RESULTS).meta({
      description:
        'created: a new draft; unchanged: the seed holds these values; proposed: the seed exists and differs, a proposed revision records the difference; rejected: see reason and errors',
    }),
    reason: z.string().optional(),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'For a line that fails validation: each field of the line and why' }),
    proposed_revision: z.number().int().optional().meta({ description: 'The open proposal, for proposed' }),
  })
  .meta({ id: 'SeedImportAnswer' });

export const importSummarySchema = z
  .object({
    summary: z.object({
      lines: z.number().int(),
      created: z.number().int(),
      unchanged: z.number().int(),
      proposed: z.number().int(),
      rejected: z.number().int(),
    }),
  })
  .meta({ id: 'SeedImportSummary', description: 'The last line of a complete import: the answers counted' });

export function emptyCounts(): ImportCounts {
  return { lines: 0, created: 0, unchanged: 0, proposed: 0, rejected: 0 };
}

export function countAnswer(counts: ImportCounts, answer: ImportAnswer): void {
  counts.lines += 1;
  counts[answer.result] += 1;
}

/** A line checked as a create body: the body, or its field errors named relative to the line (`fetch.urls.0`). */
export function checkImportLine(
  value: unknown,
): { ok: true; body: SeedCreateRequest } | { ok: false; errors: FieldError[] } {
  const parsed = seedCreateSchema.safeParse(value);
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors = parsed.error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    // An unknown key is named in its own path, as the API names it for a POST body.
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ path: [...path, key].join('.'), message: 'is not a known field' }));
    return [{ path: path.join('.') || '(line)', message: issue.message }];
  });
  return { ok: false, errors };
}

/** Field errors of the seed identity (`body.seed_id`) named relative to the line, as the schema's are. */
export function linePaths(errors: readonly FieldError[]): FieldError[] {
  return errors.map((error) => ({ ...error, path: error.path.replace(/^body\./, '') }));
}

/**
 * The revision fields a line gives (name and contract), as a seed stores them: what an existing seed is compared
 * with. A field the line leaves out is not compared; `policy.ai` is a discovery fact, never part of the contract.
 */
export function lineRevisionValues(body: SeedCreateRequest): RevisionValues {
  const values: RevisionValues = {};
  if (body.name !== undefined) values.name = body.name;
  if (body.entry_url !== undefined) values.entry_url = body.entry_url;
  if (body.fetch !== undefined) values.fetch = body.fetch;
  if (body.schedule !== undefined) values.schedule = body.schedule;
  if (body.policy !== undefined) values.policy = contractPolicy(body.policy);
  return values;
}

/**
 * `policy.ai` is a discovery fact shown inside the policy, not part of the contract: a policy sent in (a GET
 * posted back, an export imported) leaves it out, so it never raises the version and a person cannot set it.
 */
export function contractPolicy(policy: Record<string, unknown> | undefined): Record<string, unknown> {
  const { ai: _ai, ...contract } = policy ?? {};
  return contract;
}
