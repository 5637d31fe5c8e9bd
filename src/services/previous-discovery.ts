// What a domain's last discovery left to revalidate against (docs/rechecks.md): the validators and sitemap record
// of its domain_metadata.json, and the robots.txt it stored beside it. Read by the contract service before a run.
import type { DomainMetadata } from '../engine/contract-discovery.js';
import type { PreviousDiscovery } from '../engine/revalidation.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { ChangeService } from './changes.js';

/** Null when the domain has no earlier discovery, or it cannot be read (then everything is fetched in full). */
export async function previousDiscovery(
  objects: ObjectStore,
  changes: Pick<ChangeService, 'lastMetadataKey'>,
  registrableDomain: string,
): Promise<PreviousDiscovery | null> {
  const metadataKey = await changes.lastMetadataKey(registrableDomain);
  if (!metadataKey) return null;
  const metadata = await readObject(objects, metadataKey);
  if (!metadata) return null;
  let parsed: Partial<DomainMetadata>;
  try {
    parsed = JSON.parse(metadata.toString('utf8')) as Partial<DomainMetadata>;
  } catch {
    return null;
  }
  // robots.txt is stored beside domain_metadata.json, in the same partition folder.
  const robotsKey = `${metadataKey.slice(0, metadataKey.lastIndexOf('/') + 1)}robots.txt`;
  return {
    validators: parsed.validators ?? {},
    robotsTxt: parsed.robots?.exists ? await readObject(objects, robotsKey) : null,
    sitemap: parsed.sitemap ?? null,
  };
}

async function readObject(objects: ObjectStore, key: string): Promise<Buffer | null> {
  const stream = await objects.get(key);
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}
