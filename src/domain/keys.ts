// Object keys of docs/design.md §4, built only from validated parts (Hive-style key=value partitions).
import { type Partition, padChunk, parseChunkRef, partitionSchema } from './identifiers.js';

const PROD_FILES = [
  'domain_metadata.json',
  'domain_metadata.json.success',
  'robots.txt',
  'sitemap.xml',
] as const;
export type ProdFile = (typeof PROD_FILES)[number];

/** The evidence a contract run stores for a domain: every prod file but the checkpoint. */
export const EVIDENCE_FILES = ['domain_metadata.json', 'robots.txt', 'sitemap.xml'] as const;
export type EvidenceFile = (typeof EVIDENCE_FILES)[number];

/** Re-validates, so a key can never be built from a value that skipped the schemas. */
function checked(partition: Partition): Partition {
  return partitionSchema.parse(partition);
}

function partitionPath(root: 'raw' | 'prod', partition: Partition): string {
  const { country, category, date } = partition;
  // A partition's path is checked once: every research chunk builds its key twice, and the schema's parse was
  // ≈ 1 µs a URL of the pipeline's main thread (docs/performance.md, "Eighth pass"). Only checked paths are kept.
  const seen = `${root}\n${country}\n${category}\n${date}`;
  const kept = checkedPaths.get(seen);
  if (kept !== undefined) return kept;
  const p = checked(partition);
  const path = `${root}/country=${p.country}/category=${p.category}/date=${p.date}/`;
  if (checkedPaths.size >= CHECKED_PATHS) checkedPaths.delete(checkedPaths.keys().next().value as string);
  checkedPaths.set(seen, path);
  return path;
}

/** Paths checked by partitionPath, by root and parts (a checked part holds no newline, so no other parts match). */
const checkedPaths = new Map<string, string>();
const CHECKED_PATHS = 256;

export function rawPartitionPrefix(partition: Partition): string {
  return partitionPath('raw', partition);
}

export function rawChunkKey(partition: Partition, chunk: number): string {
  if (parseChunkRef(chunk) !== chunk) throw new Error(`invalid chunk number ${chunk}`);
  return `${rawPartitionPrefix(partition)}raw_${padChunk(chunk)}.json`;
}

export function checkpointKey(rawKey: string): string {
  if (!parseRawChunkKey(rawKey)) throw new Error(`not a raw chunk key: ${rawKey}`);
  return `${rawKey}.success`;
}

const RAW_KEY =
  /^raw\/country=([a-z]{2}|intl)\/category=([a-z0-9][a-z0-9_-]{0,63})\/date=(\d{4}-\d{2}-\d{2})\/raw_(\d{4})\.json$/;

/** Recognises exactly `raw_NNNN.json` objects: no checkpoints, no system files. */
export function parseRawChunkKey(key: string): { partition: Partition; chunk: number } | null {
  const match = RAW_KEY.exec(key);
  if (!match) return null;
  const parsed = partitionSchema.safeParse({ country: match[1], category: match[2], date: match[3] });
  const chunk = parseChunkRef(match[4]!);
  if (!parsed.success || chunk === null) return null;
  return { partition: parsed.data, chunk };
}

const HOST_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The folder of one domain's contract files in a partition: `prod/…/date=…/{domain}/`. */
export function prodDomainPrefix(partition: Partition, domain: string): string {
  if (!HOST_PATTERN.test(domain) || domain.length > 253)
    throw new Error(`invalid domain for a key: ${domain}`);
  return `${partitionPath('prod', partition)}${domain}/`;
}

export function prodDomainKey(partition: Partition, domain: string, file: ProdFile): string {
  if (!PROD_FILES.includes(file)) throw new Error(`invalid evidence file ${file}`);
  return `${prodDomainPrefix(partition, domain)}${file}`;
}

export function prodPartitionPrefix(partition: Partition): string {
  return partitionPath('prod', partition);
}
