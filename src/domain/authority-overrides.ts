// The authority override table of docs/design.md §2: registrable domains whose authority the Public Suffix List cannot
// tell (governments without a gov suffix). The shipped table is authority-overrides.json; an operator's
// file of the same shape (SEEDBED_AUTHORITY_OVERRIDES) extends it and wins on the same domain.
import { z } from 'zod';
import { isCountryCode } from './countries.js';
import {
  AUTHORITIES,
  type AuthorityOverride,
  type AuthorityOverrides,
  overrideKeyOf,
  SHIPPED_AUTHORITY_OVERRIDES,
} from './domains.js';

const entrySchema = z
  .object({
    authority: z.enum(AUTHORITIES),
    country: z
      .string()
      .toLowerCase()
      .refine(isCountryCode, { message: 'must be an ISO 3166-1 alpha-2 country code or "intl"' })
      .optional(),
    note: z.string().max(1000).optional(),
  })
  .strict();

const fileSchema = z
  .object({
    $comment: z.union([z.string(), z.array(z.string())]).optional(),
    domains: z.record(z.string(), entrySchema),
  })
  .strict();

export type ParsedOverrides = { ok: true; value: AuthorityOverrides } | { ok: false; errors: string[] };

/** Validates an override file's JSON; every key must be a registrable domain (stored lowercase ASCII). */
export function parseAuthorityOverrides(json: unknown): ParsedOverrides {
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`),
    };
  }
  const errors: string[] = [];
  const table = new Map<string, AuthorityOverride>();
  for (const [name, entry] of Object.entries(parsed.data.domains)) {
    const key = overrideKeyOf(name);
    if (key === null) {
      errors.push(
        `domains.${name}: not a registrable domain (a public suffix, a subdomain or not a host name)`,
      );
    } else if (table.has(key)) {
      errors.push(`domains.${name}: ${key} is listed twice`);
    } else {
      table.set(key, entry);
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: table };
}

/** The shipped table extended by an operator's: an operator's entry replaces the shipped one. */
export function withOperatorOverrides(
  operator: AuthorityOverrides,
  shipped: AuthorityOverrides = SHIPPED_AUTHORITY_OVERRIDES,
): AuthorityOverrides {
  return new Map([...shipped, ...operator]);
}
