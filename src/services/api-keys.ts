// API keys with scopes: from SEEDBED_API_KEYS (name:key:scopes;…) and from the database
// (`seedbed keys create`). Only SHA-256 hashes are kept; the plain key is shown once at creation.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.js';
import { uuidv7 } from '../domain/ids.js';
import type { Database } from '../ports/database.js';
import type { Clock } from './common.js';

export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export interface Principal {
  name: string;
  scopes: ReadonlySet<Scope>;
}

/** admin implies write implies read. */
export function allows(principal: Principal, needed: Scope): boolean {
  const rank = { read: 0, write: 1, admin: 2 } as const;
  return [...principal.scopes].some((scope) => rank[scope] >= rank[needed]);
}

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const MIN_KEY_LENGTH = 16;

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function parseScopes(text: string, where: string): Set<Scope> {
  const scopes = text.split(/[,+ ]/).filter(Boolean);
  if (scopes.length === 0)
    throw ValidationError.field(where, 'needs at least one scope (read, write, admin)');
  for (const scope of scopes) {
    if (!(SCOPES as readonly string[]).includes(scope))
      throw ValidationError.field(where, `unknown scope ${scope}`);
  }
  return new Set(scopes as Scope[]);
}

/** Parses `name:key:scopes;…`; the error names the entry, never the key. */
export function parseEnvKeys(text: string | undefined): Map<string, Principal> {
  const keys = new Map<string, Principal>();
  if (!text) return keys;
  text
    .split(';')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .forEach((entry, i) => {
      const [name, key, scopes, ...rest] = entry.split(':');
      const where = `SEEDBED_API_KEYS entry ${i + 1}`;
      if (!name || !key || scopes === undefined || rest.length > 0) {
        throw ValidationError.field(where, 'must be name:key:scopes');
      }
      if (!NAME_PATTERN.test(name)) throw ValidationError.field(where, 'name must be letters, digits, _ . -');
      if (key.length < MIN_KEY_LENGTH)
        throw ValidationError.field(where, `key must be at least ${MIN_KEY_LENGTH} characters`);
      keys.set(hashKey(key), { name, scopes: parseScopes(scopes, where) });
    });
  return keys;
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;

export function createApiKeyService(deps: { database: Database; clock: Clock; envKeys: string | undefined }) {
  const { database, clock } = deps;
  const envKeys = parseEnvKeys(deps.envKeys);

  async function authenticate(token: string): Promise<Principal | null> {
    const hash = hashKey(token);
    const fromEnv = envKeys.get(hash);
    if (fromEnv) return fromEnv;
    const row = await database.db
      .selectFrom('api_keys')
      .select(['name', 'scopes', 'key_hash'])
      .where('key_hash', '=', hash)
      .executeTakeFirst();
    if (!row || !timingSafeEqual(Buffer.from(row.key_hash), Buffer.from(hash))) return null;
    return { name: row.name, scopes: parseScopes(row.scopes, 'stored key') };
  }

  async function hasAnyKeys(): Promise<boolean> {
    if (envKeys.size > 0) return true;
    const row = await database.db.selectFrom('api_keys').select('id').limit(1).executeTakeFirst();
    return Boolean(row);
  }

  async function create(
    name: string,
    scopesText: string,
  ): Promise<{ name: string; key: string; scopes: Scope[] }> {
    if (!NAME_PATTERN.test(name))
      throw ValidationError.field('name', 'must be letters, digits, _ . - (1 to 64)');
    const scopes = parseScopes(scopesText, 'scopes');
    const key = `sbk_${randomBytes(32).toString('base64url')}`;
    try {
      await database.db
        .insertInto('api_keys')
        .values({
          id: uuidv7(),
          name,
          key_hash: hashKey(key),
          scopes: [...scopes].join(','),
          created_at: clock().toISOString(),
        })
        .execute();
    } catch {
      throw new ConflictError(`a key named ${name} already exists`, 'key_exists');
    }
    return { name, key, scopes: [...scopes] };
  }

  async function list() {
    const rows = await database.db
      .selectFrom('api_keys')
      .select(['name', 'scopes', 'created_at'])
      .orderBy('name')
      .execute();
    return [
      ...[...envKeys.values()].map((p) => ({
        name: p.name,
        scopes: [...p.scopes],
        source: 'env',
        created_at: null,
      })),
      ...rows.map((r) => ({
        name: r.name,
        scopes: r.scopes.split(','),
        source: 'database',
        created_at: r.created_at,
      })),
    ];
  }

  async function revoke(name: string): Promise<void> {
    const result = await database.db.deleteFrom('api_keys').where('name', '=', name).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new NotFoundError(`no stored key named ${name}`);
  }

  return { authenticate, hasAnyKeys, create, list, revoke };
}
