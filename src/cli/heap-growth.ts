// How far the service lets V8's heap grow past what is live before a full collection: most of its memory peak.
import { setFlagsFromString } from 'node:v8';

/**
 * Under a fast allocation rate V8 lets the old generation grow to about four times the live heap before it
 * collects it. An import promotes ~2.5 KB of short-lived objects a line (a group's lines live until it commits),
 * so with ~90 MB live the heap climbed to ~380 MB of garbage and the process to ~520 MB, whatever the file's size.
 * At 1.5 times the heap stays near 150 MB, for a full collection each ~45 MB promoted (tens of ms, mostly
 * incremental). V8 reads the factor at every collection, so setting it in a running process takes effect.
 */
export const HEAP_GROWING_PERCENT = 50;

export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
