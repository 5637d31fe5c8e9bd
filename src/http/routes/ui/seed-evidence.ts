// What the seed page shows of a seed's stored evidence: the homepage from domain_metadata.json, and the
// robots.txt excerpt around the rule that decided the entry URL (re-decided here with the engine's own parser).
import type { Readable } from 'node:stream';
import { NotFoundError } from '../../../domain/errors.js';
import type { EvidenceFile } from '../../../domain/keys.js';
import type { Seed } from '../../../domain/seed-record.js';
import { parseRobots } from '../../../engine/robots.js';
import type { EvidenceService } from '../../../services/evidence.js';

/** robots.txt past RFC 9309's parse limit is not read by the engine either. */
const MAX_READ_BYTES = 512 * 1024;
const EXCERPT_CONTEXT = 3;

export interface RobotsExcerpt {
  url: string;
  allowed: boolean;
  /** The deciding line (1-based), null when no rule matched (allowed by default). */
  line: number | null;
  lines: Array<{ number: number; text: string }>;
}

export interface SeedEvidence {
  files: Array<{ name: string; bytes: number; href: string }>;
  homepage: { final_url: string | null; status_code: number | null } | null;
  source: { batch_id?: string; raw_file_path?: string } | null;
  robots: RobotsExcerpt | null;
}

async function readText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    chunks.push(buffer);
    size += buffer.length;
    if (size >= MAX_READ_BYTES) {
      stream.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_READ_BYTES).toString('utf8');
}

async function readFile(
  evidence: EvidenceService,
  seedId: string,
  name: EvidenceFile,
): Promise<string | null> {
  try {
    return await readText((await evidence.open(seedId, name)).stream);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

export function robotsExcerpt(robotsUrl: string, text: string, entryUrl: string): RobotsExcerpt {
  const decision = parseRobots(robotsUrl, text).decide(entryUrl);
  const all = text.split(/\r\n|\r|\n/);
  const line = decision.rule?.line ?? null;
  // Around the deciding line; the top of the file when no rule decided.
  const from = line === null ? 1 : Math.max(1, line - EXCERPT_CONTEXT);
  const to =
    line === null
      ? Math.min(all.length, 1 + 2 * EXCERPT_CONTEXT)
      : Math.min(all.length, line + EXCERPT_CONTEXT);
  const lines = [];
  for (let n = from; n <= to; n++) lines.push({ number: n, text: all[n - 1] ?? '' });
  return { url: robotsUrl, allowed: decision.allowed, line, lines };
}

export async function loadEvidence(evidence: EvidenceService, seed: Seed): Promise<SeedEvidence> {
  const list = await evidence.list(seed.seed_id);
  const has = (name: string) => list.files.some((file) => file.name === name);
  let homepage: SeedEvidence['homepage'] = null;
  let source: SeedEvidence['source'] = null;
  if (has('domain_metadata.json')) {
    const text = await readFile(evidence, seed.seed_id, 'domain_metadata.json');
    try {
      const metadata = text ? JSON.parse(text) : null;
      homepage = metadata?.homepage ?? null;
      source = metadata?.source ?? null;
    } catch {
      // A file that is not JSON shows as a file, without its facts.
    }
  }
  let robots: RobotsExcerpt | null = null;
  const robotsUrl = seed.policy.robots_url;
  if (has('robots.txt') && typeof robotsUrl === 'string' && seed.entry_url) {
    const text = await readFile(evidence, seed.seed_id, 'robots.txt');
    if (text !== null) robots = robotsExcerpt(robotsUrl, text, seed.entry_url);
  }
  return {
    files: list.files.map((f) => ({ name: f.name, bytes: f.bytes, href: f.href })),
    homepage,
    source,
    robots,
  };
}
