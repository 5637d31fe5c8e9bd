// Identifiers that sort by creation time: UUIDv7 (RFC 9562) for batches, jobs and tasks.
import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/**
 * Random bytes drawn from the CSPRNG a few kilobytes at a time: `randomBytes(16)` per id allocated a buffer and
 * called into OpenSSL each time, about 5 µs an id (1 % of the main thread's CPU in a contract batch, which writes a
 * change event or more per domain). Each byte is used once.
 */
const POOL = Buffer.allocUnsafe(4096);
let poolAt = POOL.length;

function randomByte(): number {
  if (poolAt === POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  return POOL[poolAt++] as number;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A UUIDv7; ids made in the same millisecond by this process still sort in creation order. */
export function uuidv7(now: number = Date.now()): string {
  if (now <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    now = lastMs;
  } else {
    lastMs = now;
    // The sequence starts at a random point in its lower half, so a busy millisecond has room to count up.
    sequence = ((randomByte() << 8) | randomByte()) & 0x7ff;
  }
  // 48 bits of milliseconds, big-endian: two 24-bit halves (the bit operators work on 32 bits).
  const high = Math.floor(now / 0x1000000);
  const low = now % 0x1000000;
  let hex =
    HEX[(high >>> 16) & 0xff]! +
    HEX[(high >>> 8) & 0xff]! +
    HEX[high & 0xff]! +
    HEX[(low >>> 16) & 0xff]! +
    '-' +
    HEX[(low >>> 8) & 0xff]! +
    HEX[low & 0xff]! +
    '-' +
    HEX[0x70 | ((sequence >>> 8) & 0x0f)]! +
    HEX[sequence & 0xff]! +
    '-' +
    HEX[(randomByte() & 0x3f) | 0x80]! +
    HEX[randomByte()]! +
    '-';
  for (let i = 0; i < 6; i++) hex += HEX[randomByte()]!;
  return hex;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
