// The evidence of a seed: the files its contract run stored under prod/…/date={date}/{domain}/ (robots.txt,
// sitemap.xml, domain_metadata.json), found through the seed's provenance. Read-only; contracts write them.
import type { Readable } from 'node:stream';
import { NotFoundError } from '../domain/errors.js';
import { type Partition, partitionSchema } from '../domain/identifiers.js';
import { EVIDENCE_FILES, type EvidenceFile, prodDomainKey, prodDomainPrefix } from '../domain/keys.js';
import type { Seed } from '../domain/seed-record.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { SeedService } from './seeds.js';

export const EVIDENCE_CONTENT_TYPES: Record<EvidenceFile, string> = {
  'domain_metadata.json': 'application/json',
  'robots.txt': 'text/plain; charset=utf-8',
  'sitemap.xml': 'application/xml',
};

export interface EvidenceFileView {
  name: EvidenceFile;
  bytes: number;
  last_modified: string;
  content_type: string;
  /** Where to read it: GET this path. */
  href: string;
}

export interface EvidenceList {
  seed_id: string;
  /** The partition of the discovery the seed's contract came from; null for a seed no contract run made. */
  partition: Partition | null;
  files: EvidenceFileView[];
}

export type EvidenceService = ReturnType<typeof createEvidenceService>;

export function createEvidenceService(deps: { seeds: Pick<SeedService, 'get'>; objects: ObjectStore }) {
  const { seeds, objects } = deps;

  /**
   * A contract run writes the seed's provenance (its partition date) with the seed, after the evidence is stored;
   * a seed a person created has no date, and so no evidence.
   */
  async function locate(seedId: string): Promise<{ seed: Seed; partition: Partition | null }> {
    const seed = await seeds.get(seedId);
    const parsed = partitionSchema.safeParse({
      country: seed.country,
      category: seed.category,
      date: seed.provenance['date'],
    });
    return { seed, partition: parsed.success ? parsed.data : null };
  }

  async function list(seedId: string): Promise<EvidenceList> {
    const { seed, partition } = await locate(seedId);
    if (!partition) return { seed_id: seed.seed_id, partition: null, files: [] };
    const prefix = prodDomainPrefix(partition, seed.registrable_domain);
    const files: EvidenceFileView[] = [];
    for await (const info of objects.list(prefix)) {
      const name = info.key.slice(prefix.length);
      if (!(EVIDENCE_FILES as readonly string[]).includes(name)) continue;
      const file = name as EvidenceFile;
      files.push({
        name: file,
        bytes: info.size,
        last_modified: info.lastModified.toISOString(),
        content_type: EVIDENCE_CONTENT_TYPES[file],
        href: `/api/v1/seeds/${encodeURIComponent(seed.seed_id)}/evidence/${file}`,
      });
    }
    return { seed_id: seed.seed_id, partition, files };
  }

  async function open(
    seedId: string,
    name: EvidenceFile,
  ): Promise<{ stream: Readable; bytes: number; contentType: string }> {
    const { seed, partition } = await locate(seedId);
    if (!partition)
      throw new NotFoundError(`seed ${seed.seed_id} has no stored evidence: no contract run made it`);
    const key = prodDomainKey(partition, seed.registrable_domain, name);
    const info = await objects.head(key);
    const stream = info ? await objects.get(key) : null;
    if (!info || !stream) throw new NotFoundError(`seed ${seed.seed_id} has no ${name} in its evidence`);
    return { stream, bytes: info.size, contentType: EVIDENCE_CONTENT_TYPES[name] };
  }

  return { list, open };
}
