// The process-wide budget of domains being collected or checked at once, shared by the contract and liveness
// queues. Each domain runs in a slot with its own deadline and its place in line for the fetcher; the queue
// consumers claim new chunks whenever the pool has room, so the fetcher stays busy while a chunk's slowest
// domain is still running (a chunk is no longer the unit of parallelism).
import type { ConsumeCapacity } from '../ports/queue.js';
import type { FetchScope } from '../services/fetch-scope.js';

export type DomainOutcome<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * What a domain waiting for a slot may do meanwhile (one small request, such as its robots.txt, sent with the
 * given place in line): resolves with its expected chain in ms when that is long, else 0.
 */
export type Lookahead = (priority: number) => Promise<number>;

export interface DomainRunner {
  /**
   * Runs one domain's work in a slot; resolves with its value, or with the reason it was cut short. While it
   * waits for a slot its `lookahead` runs, and a domain with a long chain gets a free slot before the others.
   */
  run<T>(work: (scope: FetchScope) => Promise<T>, lookahead?: Lookahead): Promise<DomainOutcome<T>>;
}

/** What a chunk consumer needs: how many chunks it may claim now, and a way to say what it claimed. */
export interface ChunkBudget {
  capacity: ConsumeCapacity;
  /**
   * Called as a claim starts (synchronously, before anything is awaited), so the next poll already counts
   * it; the function returned is called with the chunk's item count once its items are in the pool.
   */
  claiming(): (items: number) => void;
}

export interface DomainPoolOptions {
  /** Domains in flight in this process. */
  domains: number;
  /** How long one domain may take once it has a slot, of its own time (its holds and extensions do not count). */
  deadlineMs: number;
  /**
   * Domains claimed beyond the slots, waiting with their lookahead done, so that a long chain queued behind
   * the pool starts early. None when absent.
   */
  lookahead?: number;
}

/** Items per chunk assumed before any chunk was seen: the contract queue's default chunk size. */
const FIRST_ESTIMATE = 20;
/** Requests a domain's contract usually takes (homepage, robots.txt, a few sitemaps and feeds). */
const TYPICAL_REQUESTS = 12;
/**
 * A domain that has made, or is known to have ahead, more requests than a typical one has a long chain (a big
 * sitemap tree), as has one whose lookahead found it crawl-delayed or slow; a long chain started late decides
 * when the batch ends — the longest-first rule of the
 * bench's perfectly parallel client. Its place is its start scaled into (0, 1): ahead of every ordinary domain
 * (numbered from 1), in start order among such, behind requests of no domain (0: the network canary) and
 * behind a crawl-delayed host's (the fetcher moves those below 0).
 */
const LONG_CHAIN_SCALE = 2 ** -40;
/**
 * A domain's first request (its robots.txt: read early by a waiting domain's lookahead, or first by a running
 * one) goes ahead of every ordinary domain's requests, behind long chains: the Crawl-delay or the slowness it
 * tells is only worth knowing early, since a long chain found late decides when the batch ends. In start
 * order among them.
 */
const FIRST_REQUEST_PLACE = 0.5;
/** Each request of an ordinary domain moves its next ones back by the pool's slots over this (see `weight`). */
const POOL_SHARE_PER_REQUEST = 4;
/** At most this many chunks per claim, so a guess about chunk sizes never overshoots by much. */
const MAX_CLAIM = 32;

/** How a domain got its slot: through the door for long chains or not, and whether its chain is known long. */
interface Admission {
  door: boolean;
  long: boolean;
}

interface Waiting {
  /** Lets the domain start. */
  admit: (admission: Admission) => void;
  /** The domain's expected chain once its lookahead has told; 0 for an ordinary or unknown one. */
  chainMs: number;
}

export type DomainPool = DomainRunner & ChunkBudget & { readonly stats: { running: number; load: number } };

export function createDomainPool(options: DomainPoolOptions): DomainPool {
  const limit = Math.max(1, Math.floor(options.domains));
  const ahead = Math.max(0, Math.floor(options.lookahead ?? 0));
  let running = 0;
  /** Items handed to the pool and not finished (running or waiting for a slot). */
  let load = 0;
  /** Claims under way whose item count is not known yet. */
  let expecting = 0;
  let estimate = FIRST_ESTIMATE;
  /** A domain's place in line for the fetcher; 0 is left to requests of no domain (the network canary). */
  let sequence = 1;
  // Domains started earlier go first, so results come in. Yet each of a domain's requests moves its next ones
  // back by a quarter of the pool (192 domains with the default pool of 6 × SEEDBED_FETCH_CONCURRENCY = 768,
  // src/config.ts), so the last domains to start are not left to run their whole chains alone at the end: all
  // domains in lockstep finish soonest but show no progress until then, and a quarter is nearer lockstep than
  // the twelfth it was (docs/fetching.md, "Speed on two cores": more requests at the sites on average, the first
  // results about 2 s later in the latency bench). Past a typical domain's count the domain goes ahead of every
  // ordinary one (LONG_CHAIN_SCALE).
  const weight = Math.max(1, Math.round(limit / POOL_SHARE_PER_REQUEST));
  /** A domain's place in line for each of its requests; a domain known long (or found so) goes ahead. */
  function placeInLine(start: number, knownLong: boolean): Pick<FetchScope, 'priority' | 'lengthen'> {
    let long = knownLong;
    return {
      priority(n, following = 0) {
        if (long || n + following >= TYPICAL_REQUESTS) return start * LONG_CHAIN_SCALE;
        if (n === 0) return FIRST_REQUEST_PLACE + start * LONG_CHAIN_SCALE;
        return start + n * weight;
      },
      lengthen() {
        long = true;
      },
    };
  }
  const waiting: Waiting[] = [];
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };

  const capacity: ConsumeCapacity = {
    available() {
      const free = limit + ahead - load - expecting * estimate;
      return free <= 0 ? 0 : Math.min(MAX_CLAIM, Math.max(1, Math.floor(free / estimate)));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  function claiming(): (items: number) => void {
    expecting += 1;
    let done = false;
    return (items) => {
      if (done) return;
      done = true;
      expecting -= 1;
      if (items > 0) estimate = items;
      notify();
    };
  }

  /**
   * Slots beyond the limit for domains whose lookahead found a long chain (a Crawl-delay, a slow site): such a
   * domain spends nearly all its time in its host's gap, so letting it in at once costs the fetcher little, and
   * it no longer waits for ordinary domains to finish before its long chain can start.
   */
  const longDoor = ahead > 0 ? Math.max(1, Math.round(limit / 8)) : 0;
  let longRunning = 0;
  /** Lookaheads started: their place in line, in the order the domains came. */
  let lookaheads = 0;

  /** The waiting domain with the longest known chain (first come among equals); -1 when none is long. */
  function longest(): number {
    let pick = -1;
    for (let i = 0; i < waiting.length; i += 1) {
      const chainMs = (waiting[i] as Waiting).chainMs;
      if (chainMs > 0 && (pick === -1 || chainMs > (waiting[pick] as Waiting).chainMs)) pick = i;
    }
    return pick;
  }

  function admitLong(at: number): void {
    const [entry] = waiting.splice(at, 1);
    longRunning += 1;
    entry?.admit({ door: true, long: true });
  }

  /** Resolves once the domain may start. */
  async function slot(lookahead: Lookahead | undefined): Promise<Admission> {
    if (running < limit) {
      running += 1;
      return { door: false, long: false };
    }
    return new Promise<Admission>((admit) => {
      const entry: Waiting = { admit, chainMs: 0 };
      waiting.push(entry);
      if (ahead > 0 && lookahead)
        void lookahead(FIRST_REQUEST_PLACE + lookaheads++ * LONG_CHAIN_SCALE).then(
          (chainMs) => {
            entry.chainMs = chainMs;
            const at = waiting.indexOf(entry);
            if (chainMs > 0 && at !== -1 && longRunning < longDoor) admitLong(at);
          },
          () => undefined,
        );
    });
  }

  /** A free slot goes to the waiting domain with the longest known chain; otherwise in the order they came. */
  function freeSlot(door: boolean): void {
    const at = longest();
    if (door) {
      longRunning -= 1;
      if (at !== -1) admitLong(at);
      return;
    }
    const [next] = waiting.splice(Math.max(0, at), 1);
    if (next) next.admit({ door: false, long: next.chainMs > 0 });
    else running -= 1;
  }

  async function run<T>(
    work: (scope: FetchScope) => Promise<T>,
    lookahead?: Lookahead,
  ): Promise<DomainOutcome<T>> {
    load += 1;
    try {
      const { door, long } = await slot(lookahead);
      try {
        return await withDeadline(work, placeInLine(sequence++, long), options.deadlineMs);
      } finally {
        freeSlot(door);
      }
    } finally {
      load -= 1;
      notify();
    }
  }

  return {
    run,
    capacity,
    claiming,
    get stats() {
      return { running: running + longRunning, load };
    },
  };
}

class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
}

/**
 * Races the work against its deadline. When the deadline passes, the domain's requests are aborted through
 * the scope's signal and the slot is freed at once; whatever the work still does (it fails fast) is dropped.
 */
async function withDeadline<T>(
  work: (scope: FetchScope) => Promise<T>,
  place: Pick<FetchScope, 'priority' | 'lengthen'>,
  deadlineMs: number,
): Promise<DomainOutcome<T>> {
  const controller = new AbortController();
  let deadlineAt = performance.now() + deadlineMs;
  /** Holds under way (requests in our own line), and since when the first of them has held the clock. */
  let holds = 0;
  let heldSince = 0;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<DomainOutcome<T>>((resolve) => {
    const check = () => {
      // While held, the clock stopped at heldSince: what was left then is still left.
      const left = deadlineAt - (holds > 0 ? heldSince : performance.now());
      if (left > 0) {
        timer = setTimeout(check, left);
        return;
      }
      const seconds = Math.round(deadlineMs / 1000);
      const reason = `deadline exceeded: the domain took longer than its ${seconds} s`;
      controller.abort(new DeadlineExceeded(reason));
      resolve({ ok: false, reason });
    };
    timer = setTimeout(check, deadlineMs);
  });
  const scope: FetchScope = {
    signal: controller.signal,
    ...place,
    extend(ms) {
      if (ms > 0) deadlineAt += ms;
    },
    hold() {
      if (holds === 0) heldSince = performance.now();
      holds += 1;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        holds -= 1;
        if (holds === 0) deadlineAt += performance.now() - heldSince;
      };
    },
  };
  const working = work(scope).then((value): DomainOutcome<T> => ({ ok: true, value }));
  // A failure after the deadline has nobody left to hear it.
  working.catch(() => undefined);
  try {
    return await Promise.race([working, expired]);
  } finally {
    clearTimeout(timer);
  }
}
