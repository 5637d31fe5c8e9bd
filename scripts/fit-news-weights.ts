// Fits the news verdict's weights (WEIGHTS, BASE_LOG_ODDS in src/engine/news-signals.ts) on the labelled real pages
// and compares them with the hand weights (issue 20). Each page is read once as its domain's entry page alone (as the
// quality tests read it) and its raw reasons — the signals that fire before the three bounded reasons — are kept; the
// fit is an L2-regularised logistic regression over those signal indicators, by cyclic coordinate Newton steps with
// each weight held to its documented sign (a signal for news never below 0, one against never above 0) and the tiers
// of one signal kept in order (article_links_many ≥ _some ≥ _few ≥ 0, likewise sections, publisher meta, shop signals).
// It trains ONLY on the tuning halves of the seven sets; the regularisation (its strength, and whether it shrinks
// towards 0 or towards the hand weights) and the weight of a not-news page are chosen by leave-one-set-out
// cross-validation over those tuning halves. Both weight tables are judged the same way: the fitted weights rounded
// to tenths, each page's raw reasons re-weighted, then `verdictOfReasons` adds the bounded reasons as judgeNews does.
// Platform hosts stay decisive (not_news). Country and language do not read the verdict and are not touched.
//
// Run: npx tsx scripts/fit-news-weights.ts [--cache FILE] [--hold-out]
//   --cache FILE  keep the pages' raw reasons in FILE (read if it exists, else written): judging the 1,064 pages
//                 takes minutes, the fit seconds. Delete the file after changing any signal.
//   --hold-out    also print both tables' figures on each set's hold-out half (read them once, at the end).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  BASE_LOG_ODDS,
  judgeNews,
  type NewsReason,
  type RawNewsReasons,
  rawNewsReasons,
  verdictOfReasons,
  WEIGHTS,
} from '../src/engine/news-verdict.js';
import { readPageFacts } from '../src/engine/page-facts.js';
import {
  FIFTH_PAGES_DIR,
  FOURTH_PAGES_DIR,
  FRESH_PAGES_DIR,
  loadRealPages,
  REAL_PAGES_DIR,
  SEVENTH_PAGES_DIR,
  SIXTH_PAGES_DIR,
  THIRD_PAGES_DIR,
} from '../test/support/real-pages.js';
import { isFreshHoldOut, isHoldOut, newsInputOf } from '../test/support/real-pages-eval.js';

type Signal = keyof typeof WEIGHTS;
type Weights = Record<Signal, number>;

/** One labelled page as the fit reads it. */
interface Sample {
  set: string;
  id: string;
  holdOut: boolean;
  news: boolean;
  /** A platform host: decisive, not_news whatever the weights. */
  platform: boolean;
  signals: Signal[];
  frontUrl: string | null;
  pageCount: number;
  /** The front's dates when they are days apart (`slow_front` reads it). */
  slowFront: RawNewsReasons['slowFront'];
  /** Where the front says it gathers other outlets' news (`aggregator_front` reads it). */
  aggregatorFront?: string | null;
  /** Where the front offers e-mail among its site's services (`mail_portal_front` reads it). */
  mailPortalFront?: string | null;
  /** judgeNews's verdict today, to check that re-weighting with the hand weights gives it back. */
  handVerdict: string;
}

const SETS: ReadonlyArray<readonly [string, string, (id: string) => boolean]> = [
  ['main', REAL_PAGES_DIR, isHoldOut],
  ['second', FRESH_PAGES_DIR, isFreshHoldOut],
  ['third', THIRD_PAGES_DIR, isFreshHoldOut],
  ['fourth', FOURTH_PAGES_DIR, isFreshHoldOut],
  ['fifth', FIFTH_PAGES_DIR, isFreshHoldOut],
  ['sixth', SIXTH_PAGES_DIR, isFreshHoldOut],
  ['seventh', SEVENTH_PAGES_DIR, isFreshHoldOut],
];

function argValue(name: string): string | null {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? null) : null;
}

function readSamples(): Sample[] {
  const cache = argValue('--cache');
  if (cache !== null && existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8')) as Sample[];
  const samples: Sample[] = [];
  for (const [set, dir, holdOutOf] of SETS) {
    for (const page of loadRealPages(dir)) {
      const input = newsInputOf(page, readPageFacts(page.html, page.url));
      const raw = rawNewsReasons(input);
      samples.push({
        set,
        id: page.id,
        holdOut: holdOutOf(page.id),
        news: page.labels.news,
        platform: raw === null,
        signals: (raw?.reasons ?? []).map((r) => r.signal as Signal),
        frontUrl: raw?.frontUrl ?? null,
        pageCount: raw?.pageCount ?? 0,
        slowFront: raw?.slowFront ?? null,
        aggregatorFront: raw?.aggregatorFront ?? null,
        mailPortalFront: raw?.mailPortalFront ?? null,
        handVerdict: judgeNews(input).verdict,
      });
    }
  }
  if (cache !== null) writeFileSync(cache, JSON.stringify(samples));
  return samples;
}

/** The verdict of one page under a weight table and base log-odds, the bounded reasons added as judgeNews adds them. */
function verdictUnder(sample: Sample, weights: Weights, base: number): string {
  if (sample.platform) return 'not_news';
  const reasons: NewsReason[] = sample.signals.map((signal) => ({
    signal,
    weight: weights[signal],
    evidence: '',
  }));
  const raw: RawNewsReasons = {
    reasons,
    frontUrl: sample.frontUrl,
    pageCount: sample.pageCount,
    // A cache written before `slow_front` has no such field: no slow front.
    slowFront: sample.slowFront ?? null,
    aggregatorFront: sample.aggregatorFront ?? null,
    mailPortalFront: sample.mailPortalFront ?? null,
  };
  return verdictOfReasons(raw, base).verdict;
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  pages: number;
}

function countsOf(samples: readonly Sample[], weights: Weights, base: number): Counts {
  const counts = { tp: 0, fp: 0, fn: 0, pages: samples.length };
  for (const s of samples) {
    const news = verdictUnder(s, weights, base) === 'news';
    if (news && s.news) counts.tp += 1;
    else if (news) counts.fp += 1;
    else if (s.news) counts.fn += 1;
  }
  return counts;
}

function addCounts(a: Counts, b: Counts): Counts {
  return { tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn, pages: a.pages + b.pages };
}

const precision = (c: Counts) => (c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp));
const recall = (c: Counts) => (c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn));
/** F0.5: precision weighs more than recall. */
function fHalf(c: Counts): number {
  const p = precision(c);
  const r = recall(c);
  return p + r === 0 ? 0 : (1.25 * p * r) / (0.25 * p + r);
}
const pr = (c: Counts) =>
  `P ${precision(c).toFixed(3)} R ${recall(c).toFixed(3)} (${c.tp} tp, ${c.fp} fp, ${c.fn} fn of ${c.pages})`;

// The model's parameters: one per signal, except the tiered signals, whose tiers are cumulative steps (a page with
// article_links_many has the steps few, some and many), each step held to the tier's sign, so the tiers stay ordered.
const TIERS: ReadonlyArray<readonly Signal[]> = [
  ['article_links_few', 'article_links_some', 'article_links_many'],
  ['sections_two', 'sections_some', 'sections_many'],
  ['publisher_meta_one', 'publisher_meta_many'],
  ['shop_signals_one', 'shop_signals_many'],
];

interface Param {
  name: string;
  /** The signals whose weight this step is part of. */
  signals: Signal[];
  /** +1: held ≥ 0; −1: held ≤ 0. */
  sign: 1 | -1;
  /** This step of the hand weights. */
  hand: number;
}

function paramsOf(): Param[] {
  const tiered = new Set(TIERS.flat());
  const params: Param[] = [];
  for (const tiers of TIERS)
    tiers.forEach((signal, k) => {
      const below = k === 0 ? 0 : WEIGHTS[tiers[k - 1]!];
      params.push({
        name: k === 0 ? signal : `${signal} (step)`,
        signals: tiers.slice(k),
        sign: WEIGHTS[signal] >= 0 ? 1 : -1,
        hand: WEIGHTS[signal] - below,
      });
    });
  for (const signal of Object.keys(WEIGHTS) as Signal[])
    if (!tiered.has(signal))
      params.push({
        name: signal,
        signals: [signal],
        sign: WEIGHTS[signal] >= 0 ? 1 : -1,
        hand: WEIGHTS[signal],
      });
  return params;
}

const PARAMS = paramsOf();
/** A step is fitted only where it fires on at least this many training pages; else it keeps its hand weight. */
const MIN_PAGES = 3;

interface FitOptions {
  lambda: number;
  /** Weight of a not-news page in the loss (a news page weighs 1). */
  negativeWeight: number;
  /** What the L2 term shrinks towards: 0, or the hand weights. */
  prior: 'zero' | 'hand';
  /** The base log-odds: fitted (unpenalised), or kept at BASE_LOG_ODDS. */
  base: 'fitted' | 'hand';
}

interface Fit {
  weights: Weights;
  base: number;
}

/** The fitted weight table, rounded to tenths (what would be adopted), and the base log-odds. */
function fitWeights(train: readonly Sample[], options: FitOptions): Fit {
  const data = train.filter((s) => !s.platform);
  // Which params each page has, and which are fitted (fire on ≥ MIN_PAGES training pages).
  const has = data.map((s) => {
    const fired = new Set(s.signals);
    return PARAMS.map((p, j) => (p.signals.some((sig) => fired.has(sig)) ? j : -1)).filter((j) => j >= 0);
  });
  const firing = PARAMS.map(() => 0);
  for (const row of has) for (const j of row) firing[j]! += 1;
  const fitted = PARAMS.map((_, j) => firing[j]! >= MIN_PAGES);
  const theta = PARAMS.map((p) => p.hand);
  const centre = PARAMS.map((p) => (options.prior === 'hand' ? p.hand : 0));
  for (let j = 0; j < PARAMS.length; j++) if (fitted[j]) theta[j] = centre[j]!;
  let base = BASE_LOG_ODDS;
  const y = data.map((s) => (s.news ? 1 : 0));
  const w = data.map((s) => (s.news ? 1 : options.negativeWeight));
  const z = has.map((row) => row.reduce((sum, j) => sum + theta[j]!, base));
  const members = PARAMS.map((_, j) => has.flatMap((row, i) => (row.includes(j) ? [i] : [])));
  const all = data.map((_, i) => i);
  // One Newton step on a coordinate (j = −1: the base), clipped to the coordinate's sign and to ±1 a step.
  const step = (j: number): number => {
    const rows = j < 0 ? all : members[j]!;
    let g = 0;
    let h = 0;
    for (const i of rows) {
      const p = 1 / (1 + Math.exp(-z[i]!));
      g += w[i]! * (p - y[i]!);
      h += w[i]! * p * (1 - p);
    }
    const current = j < 0 ? base : theta[j]!;
    if (j >= 0) {
      g += options.lambda * (current - centre[j]!);
      h += options.lambda;
    }
    let next = current - Math.max(-1, Math.min(1, g / Math.max(h, 1e-9)));
    if (j >= 0) next = PARAMS[j]!.sign > 0 ? Math.max(0, next) : Math.min(0, next);
    const delta = next - current;
    if (delta !== 0) for (const i of rows) z[i]! += delta;
    if (j < 0) base = next;
    else theta[j] = next;
    return Math.abs(delta);
  };
  for (let sweep = 0; sweep < 500; sweep++) {
    let moved = options.base === 'fitted' ? step(-1) : 0;
    for (let j = 0; j < PARAMS.length; j++) if (fitted[j]) moved = Math.max(moved, step(j));
    if (moved < 1e-7) break;
  }
  const weights = {} as Weights;
  for (const signal of Object.keys(WEIGHTS) as Signal[])
    weights[signal] =
      Math.round(PARAMS.reduce((sum, p, j) => sum + (p.signals.includes(signal) ? theta[j]! : 0), 0) * 10) /
      10;
  return { weights, base: Math.round(base * 10) / 10 };
}

const samples = readSamples();
const mismatched = samples.filter((s) => verdictUnder(s, WEIGHTS, BASE_LOG_ODDS) !== s.handVerdict);
if (mismatched.length > 0) throw new Error(`re-weighting changed ${mismatched.length} hand verdicts`);
const setNames = SETS.map(([set]) => set);
const tuning = samples.filter((s) => !s.holdOut);
const tuningOf = (set: string) => tuning.filter((s) => s.set === set);

/** Leave one set out over the tuning halves: fit on six tuning halves, judge the seventh's; counts per set. */
function leaveOneSetOut(options: FitOptions): Map<string, Counts> {
  return new Map(
    setNames.map((set) => {
      const model = fitWeights(
        tuning.filter((s) => s.set !== set),
        options,
      );
      return [set, countsOf(tuningOf(set), model.weights, model.base)];
    }),
  );
}

const pooled = (bySet: Map<string, Counts>) =>
  [...bySet.values()].reduce(addCounts, { tp: 0, fp: 0, fn: 0, pages: 0 });

const lines: string[] = [];
const handBySet = new Map(setNames.map((set) => [set, countsOf(tuningOf(set), WEIGHTS, BASE_LOG_ODDS)]));
lines.push(
  `hand weights on the tuning halves (tuned on them: not an unseen-set figure): ${pr(pooled(handBySet))}, F0.5 ${fHalf(pooled(handBySet)).toFixed(3)}`,
);

// Choose the regularisation and the not-news weight by leave-one-set-out F0.5 on the tuning halves.
const grid: FitOptions[] = [];
for (const base of ['fitted', 'hand'] as const)
  for (const prior of ['zero', 'hand'] as const)
    for (const lambda of [0.3, 1, 3, 10, 30, 100, 300])
      for (const negativeWeight of [1, 1.5, 2, 3]) grid.push({ lambda, negativeWeight, prior, base });
let best: { options: FitOptions; bySet: Map<string, Counts>; score: number } | null = null;
lines.push('leave-one-set-out over the tuning halves (pooled over the seven held-out halves):');
for (const options of grid) {
  const bySet = leaveOneSetOut(options);
  const score = fHalf(pooled(bySet));
  lines.push(
    `  base ${options.base.padEnd(6)} prior ${options.prior.padEnd(4)} lambda ${String(options.lambda).padStart(4)} not-news weight ${String(options.negativeWeight).padEnd(3)} ${pr(pooled(bySet))} F0.5 ${score.toFixed(3)}`,
  );
  if (best === null || score > best.score + 1e-9) best = { options, bySet, score };
}
const chosen = best!;
lines.push(
  `chosen: base ${chosen.options.base}, prior ${chosen.options.prior}, lambda ${chosen.options.lambda}, not-news weight ${chosen.options.negativeWeight} (F0.5 ${chosen.score.toFixed(3)})`,
);
lines.push('per set, leave-one-set-out (fitted) vs hand weights (tuning halves):');
for (const set of setNames)
  lines.push(`  ${set.padEnd(8)} fitted ${pr(chosen.bySet.get(set)!)}   hand ${pr(handBySet.get(set)!)}`);

const final = fitWeights(tuning, chosen.options);
lines.push(`fitted on all seven tuning halves: base ${final.base} (hand ${BASE_LOG_ODDS})`);
for (const signal of Object.keys(WEIGHTS) as Signal[]) {
  const fires = tuning.filter((s) => s.signals.includes(signal)).length;
  lines.push(
    `  ${signal.padEnd(24)} hand ${String(WEIGHTS[signal]).padStart(5)}  fitted ${String(final.weights[signal]).padStart(5)}  (fires on ${fires} tuning pages)`,
  );
}
lines.push(
  `fitted weights on the tuning halves (trained on them): ${pr(countsOf(tuning, final.weights, final.base))}`,
);

// The best plain fit (shrunk towards 0, base fitted): what a fit with no hand weights in it gives, for comparison.
const plainGrid = grid.filter((o) => o.prior === 'zero' && o.base === 'fitted');
const plainOptions = plainGrid.reduce((a, b) =>
  fHalf(pooled(leaveOneSetOut(b))) > fHalf(pooled(leaveOneSetOut(a))) + 1e-9 ? b : a,
);
const plain = fitWeights(tuning, plainOptions);
lines.push(
  `best plain fit (prior zero, base fitted): lambda ${plainOptions.lambda}, not-news weight ${plainOptions.negativeWeight}, base ${plain.base}; LOSO ${pr(pooled(leaveOneSetOut(plainOptions)))}`,
);
lines.push(
  `  its weights: ${(Object.keys(WEIGHTS) as Signal[])
    .filter((s) => plain.weights[s] !== WEIGHTS[s])
    .map((s) => `${s} ${WEIGHTS[s]}→${plain.weights[s]}`)
    .join(', ')}`,
);

/** Pages whose verdict (news, maybe, not_news) a table changes from the hand weights' (counts only, no choice made). */
function changed(weights: Weights, base: number, of: readonly Sample[]): number {
  return of.filter((s) => verdictUnder(s, weights, base) !== verdictUnder(s, WEIGHTS, BASE_LOG_ODDS)).length;
}
lines.push(
  `verdicts changed from the hand weights' (tuning halves / all ${samples.length} pages): chosen ${changed(final.weights, final.base, tuning)} / ${changed(final.weights, final.base, samples)}, plain ${changed(plain.weights, plain.base, tuning)} / ${changed(plain.weights, plain.base, samples)}`,
);

if (process.argv.includes('--hold-out')) {
  lines.push('hold-out halves, read once (hand · chosen fit · plain fit):');
  const tables = [
    ['hand', WEIGHTS, BASE_LOG_ODDS],
    ['chosen', final.weights, final.base],
    ['plain', plain.weights, plain.base],
  ] as const;
  const totals = tables.map((): Counts => ({ tp: 0, fp: 0, fn: 0, pages: 0 }));
  for (const set of setNames) {
    const half = samples.filter((s) => s.holdOut && s.set === set);
    const row = tables.map(([, weights, base], k) => {
      const c = countsOf(half, weights, base);
      totals[k] = addCounts(totals[k]!, c);
      return c;
    });
    lines.push(`  ${set.padEnd(8)} ${row.map((c, k) => `${tables[k]![0]} ${pr(c)}`).join('  ')}`);
  }
  for (const [k, [name]] of tables.entries())
    lines.push(`  all      ${name.padEnd(6)} ${pr(totals[k]!)} F0.5 ${fHalf(totals[k]!).toFixed(3)}`);
}
console.log(lines.join('\n'));
