// The queue names alone, with no dependency: the CLI names them in its help without loading the job schemas.
export const QUEUE_NAMES = [
  'RESEARCH_QUEUE',
  'LIVENESS_QUEUE',
  'CONTRACT_QUEUE',
  'SEED_QUEUE',
  // Discovery batches: a country's seeds read for links, then the candidates found qualified (docs/discovery.md).
  'DISCOVERY_QUEUE',
  // Promote and archive by filter, past what one request answers (their batches grow a step at a time).
  'SEED_ACTION_QUEUE',
  'METADATA_QUEUE',
  // The re-check schedule's ticks; the batches a tick makes run on CONTRACT_QUEUE.
  'RECHECK_QUEUE',
] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];
