// Identifiers that sort by creation time: UUIDv7 (RFC 9562) for batches, jobs and tasks.
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/** A UUIDv7; ids made in the same millisecond by this process still sort in creation order. */
export function uuidv7(now: number = Date.now()): string {
  if (now <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    now = lastMs;
  } else {
    lastMs = now;
    sequence = randomBytes(2).readUInt16BE(0) & 0x7ff;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
