import type { Engine } from '../../engine/engine.js';
import type { PriceSource } from './prices.js';
import { MAX_SYMBOLS } from '../../contract/compare.js';
import { NORM_CDF, NORM_CDF_MACROS, NORM_PPF_05 } from './normal.js';

/** Slots of the requested symbols (1..6, the request's order); slot 0 is the benchmark. */
const SLOTS = Array.from({ length: MAX_SYMBOLS }, (_, k) => k + 1);

/**
 * Everything that needs one symbol's days in order, for one slot. Each layer is a streaming window
 * (`OVER ()`: no partition, no sort) over the slot's rows, which `al` holds in date order, and a
 * streaming aggregate updates its state one row at a time: the cumulative product multiplies strictly
 * left to right, as numpy's cumprod does (a price back exactly at its old peak must give a drawdown of
 * exactly 0, and the reference data has such days). The days `_match_dates` drops (`keep` false, all
 * before the first kept day) pass through the windows, ignored by them, and are dropped after them:
 * filtering first would make DuckDB join on the date and lose the order. `d0` lets the statement
 * check that order.
 */
/**
 * The phantom day before the first that to_drawdown_series/max_drawdown put at the start of both
 * columns: _get_baseline_value reads the symbol's first price (1 + its first return) and takes 1e5
 * above 1000, 100 above 10, else 1. A first-day return above 900% (from a tiny or a negative close,
 * -1 to -20 say) so sets the running peak at 100.
 */
const BASELINE = `(CASE WHEN max(CASE WHEN day_one THEN pr END) OVER (ROWS UNBOUNDED PRECEDING) > 1000 THEN 1e5
  WHEN max(CASE WHEN day_one THEN pr END) OVER (ROWS UNBOUNDED PRECEDING) > 10 THEN 100e0 ELSE 1e0 END)`;

function perSlot(k: number): string {
  return `  SELECT * EXCLUDE (keep) FROM (
    SELECT *, max(CASE WHEN dd = 0 THEN i ELSE 0 END) OVER (ROWS UNBOUNDED PRECEDING) AS zi,
      ddb < 0 AND (day_one OR lag(ddb) OVER () = 0) AS start_b
    FROM (
      SELECT *, pr / greatest(${BASELINE}, max(pr) OVER (ROWS UNBOUNDED PRECEDING)) - 1 AS dd,
        pb / greatest(${BASELINE}, max(pb) OVER (ROWS UNBOUNDED PRECEDING)) - 1 AS ddb,
        max(CASE WHEN day_one OR sign(r) <> sg0 THEN i END) OVER (ROWS UNBOUNDED PRECEDING) AS runstart
      FROM (
        SELECT *, 1 + (product(1 + r) FILTER (keep) OVER (ROWS UNBOUNDED PRECEDING) - 1) AS pr,
          1 + (product(1 + b) FILTER (keep) OVER (ROWS UNBOUNDED PRECEDING) - 1) AS pb,
          -- a day's position (differences only; the dropped days come first) and the first kept day
          row_number() OVER () AS i, keep AND lag(keep) OVER () IS NOT TRUE AS day_one,
          CASE WHEN lag(keep) OVER () THEN lag(d) OVER () END AS d0,
          CASE WHEN lag(keep) OVER () THEN lag(e) OVER () END AS e0,
          CASE WHEN lag(keep) OVER () THEN lag(sign(r)) OVER () END AS sg0
        FROM (
          -- the slot's days, whether _match_dates keeps each, and its benchmark column
          SELECT al.slot, al.d, al.r, CASE WHEN g.same THEN al.bret ELSE al.b_re END AS b, al.r - x.rfd AS e,
            al.d >= g.loc AS keep, g.* EXCLUDE (slot, same, loc)
          FROM al, (SELECT * FROM ag WHERE slot = ${k}) g, x WHERE al.slot = ${k}
        )
      )
    )
  ) WHERE keep`;
}

/** numpy's quantile, method 'linear': virtual index (n-1)·q, lerp from the nearer end. */
function quantile(sorted: string, q: number): string {
  const h = `((n - 1) * ${q})`;
  const a = `${sorted}[CAST(floor(${h}) AS BIGINT) + 1]`;
  const b = `${sorted}[least(CAST(floor(${h}) AS BIGINT) + 1, n - 1) + 1]`;
  const t = `(${h} - floor(${h}))`;
  return `CASE WHEN ${t} >= 0.5 THEN ${b} - (${b} - ${a}) * (1 - ${t}) ELSE ${a} + (${b} - ${a}) * ${t} END`;
}

/**
 * Every figure quantstats 0.0.81 computes for one symbol, in ONE statement over all requested
 * symbols: returns on each symbol's own dates, the benchmark re-aligned to them, `_match_dates`
 * trimming, drawdown periods, monthly/quarterly/yearly compounding, runs, quantiles (numpy's linear
 * interpolation, written out) and the regression. The quirks are quantstats' own; each is named in a
 * comment and in docs/compare.md. Formatting (strings, rounding, `-`) happens in format.ts.
 *
 * Shaped by DuckDB-WASM's costs (docs/compare.md, "Speed"): every operator costs before it sees a
 * row (a hash join 1-2 ms), so there are few: streaming windows over rows already in order instead of
 * partitioned windows, one hash join (the centred second pass), and the per-symbol parts come back
 * side by side (UNION ALL BY NAME, one row per part and symbol) for computeMetricRows to put together. The request is read from
 * the temp table `compare_request`, its symbols distinct and in slot order.
 */
/* eslint-disable sql/no-interpolated-sql -- perSlot() and quantile() build fixed SQL from a slot number and literal arguments alone */
export const METRICS_SQL = /* sql */ `
WITH
p AS (SELECT * FROM compare_request),
-- _prepare_returns subtracts rf only when rf > 0, de-annualised over 252 periods
x AS (SELECT rf, CASE WHEN rf > 0 THEN pow(1 + rf, 1.0 / 252) - 1 ELSE 0 END AS rfd FROM p),
wanted AS (SELECT unnest(list_distinct(syms || [bench])) AS symbol FROM p),
-- every row of the requested symbols and the benchmark, all dates (which source holds a name is
-- decided over all of them), each source read on its own key; k is the slot of a requested symbol
src AS MATERIALIZED (
  SELECT v.symbol, v.date AS d, v.close, v.prio, list_position(p.syms, v.symbol) AS k, v.symbol = p.bench AS is_b,
    v.date BETWEEN p.start_d AND p.end_d AS in_win
  FROM ({rows}) v, p
),
best AS (SELECT map_from_entries(list((symbol, prio))) AS prio FROM (SELECT symbol, min(prio) AS prio FROM src GROUP BY symbol)),
win AS MATERIALIZED (SELECT src.k, src.is_b, src.d, src.close FROM src, best WHERE src.in_win AND src.prio = best.prio[src.symbol]),
-- one ordered stream of every series, one price per day (the lowest, should a source repeat a day)
px AS (
  SELECT * FROM (
    SELECT *, lag(slot) OVER () = slot AND lag(d) OVER () = d AS dup FROM (
      SELECT * FROM (SELECT k AS slot, d, close FROM win WHERE k IS NOT NULL UNION ALL SELECT 0, d, close FROM win WHERE is_b)
      ORDER BY slot, d, close
    )
  ) WHERE NOT coalesce(dup, false)
),
-- pct_change on each series' own dates (NULL on its first day). Closes may be 0 or negative (WTI closed
-- at -36.98): the ratio is taken as it is, a return below -100% included. Only a return from a close
-- of 0 is no number (x/0); quantstats' cleanup (_prepare_returns: ±inf -> NaN -> 0) makes it 0.
rt AS MATERIALIZED (
  SELECT slot, d, close, CASE WHEN isfinite(q) THEN q WHEN q IS NOT NULL THEN 0 END AS ret, coalesce(isinf(q), false) AS inf
  FROM (SELECT slot, d, close, CASE WHEN lag(slot) OVER () = slot THEN close / lag(close) OVER () - 1 END AS q FROM px)
),
-- d_zero: the benchmark's first return of exactly -100% (a close of 0)
br AS (SELECT d, close, ret, inf, min(d) FILTER (ret = -1) OVER () AS d_zero FROM rt WHERE slot = 0 AND ret IS NOT NULL),
-- _prepare_benchmark: the benchmark's price backfilled onto each symbol date (its first date on or
-- after it), pct_changed over the symbol's dates, NaN as 0. That price (to_prices) compounds the
-- returns, so it is proportional to the closes and the ratio of closes is that pct_change, except
-- around a close of 0: from d_zero on the price is 0 (-1 into it, 0/0 after), and a return out of a
-- 0 (±inf) leaves the price NaN on that date (pandas' cumprod skips it), so both ratios touching it are 0.
al AS MATERIALIZED (
  SELECT slot, d, r, bd, bret,
    CASE WHEN lag(slot) OVER () IS DISTINCT FROM slot OR lag(bd) OVER () >= d_zero OR binf OR lag(binf) OVER () THEN 0
      WHEN bd >= d_zero THEN -1
      ELSE coalesce(CASE WHEN isfinite(bclose / lag(bclose) OVER () - 1) THEN bclose / lag(bclose) OVER () - 1 END, 0) END AS b_re
  FROM (
    SELECT sr.slot, sr.d, sr.r, br.d AS bd, br.close AS bclose, br.ret AS bret, br.inf AS binf, br.d_zero
    FROM (SELECT slot, d, ret AS r FROM rt WHERE slot > 0 AND ret IS NOT NULL) sr ASOF LEFT JOIN br ON sr.d <= br.d
    ORDER BY sr.slot, sr.d
  )
),
-- per symbol: are its return dates the benchmark's (then the benchmark is used as it is), and
-- _match_dates: both series start at the later of their first non-zero returns
ag AS MATERIALIZED (
  SELECT slot, same, greatest(loc_r, CASE WHEN same THEN loc_same ELSE loc_re END) AS loc,
    -- the trailing windows' first days
    CAST(date_trunc('month', last_d) AS DATE) AS d_mtd, CAST(last_d - INTERVAL 3 MONTH AS DATE) AS d_3m,
    CAST(last_d - INTERVAL 6 MONTH AS DATE) AS d_6m, CAST(date_trunc('year', last_d) AS DATE) AS d_ytd,
    CAST(last_d - INTERVAL 1 YEAR AS DATE) AS d_1y, CAST(last_d - INTERVAL 35 MONTH AS DATE) AS d_3y,
    CAST(last_d - INTERVAL 59 MONTH AS DATE) AS d_5y, CAST(last_d - INTERVAL 10 YEAR AS DATE) AS d_10y
  FROM (
    SELECT slot, max(d) AS last_d,
      count(*) = (SELECT count(*) FROM br) AND count(*) FILTER (bd = d) = count(*) AS same,
      coalesce(min(d) FILTER (r <> 0), min(d)) AS loc_r,
      coalesce(min(d) FILTER (bret <> 0 AND bd = d), min(d)) AS loc_same,
      coalesce(min(d) FILTER (b_re <> 0), min(d)) AS loc_re
    FROM al GROUP BY slot
  )
),
ser AS MATERIALIZED (
${SLOTS.map(perSlot).join('\nUNION ALL\n')}
),
-- single-pass figures
one AS (
  SELECT slot, count(*) AS n, min(d) AS first_d, max(d) AS last_d, bool_and(day_one OR d > d0) AS in_order,
    fsum(r) / count(*) AS mr, fsum(b) / count(*) AS mb, fsum(e) / count(*) AS me, fsum(r - b) / count(*) AS mdf,
    min(r) AS rmin, max(r) AS rmax,
    fsum(e) FILTER (e > 0) AS e_pos, fsum(e) FILTER (e < 0) AS e_neg,
    coalesce(fsum(e * e) FILTER (e < 0), 0) AS e_down,
    count(*) FILTER (r > 0) AS npos, count(*) FILTER (r < 0) AS nneg,
    -- avg_return/avg_win/avg_loss mask the whole frame and dropna() rows: the benchmark must agree
    avg(r) FILTER (r <> 0 AND b <> 0) AS avg_ret, avg(r) FILTER (r > 0 AND b > 0) AS avg_win,
    avg(r) FILTER (r < 0 AND b < 0) AS avg_loss,
    fsum(r) AS sum_r, coalesce(fsum(r) FILTER (r >= 0), 0) AS sum_win0, coalesce(fsum(r) FILTER (r < 0), 0) AS sum_neg,
    product(1 + r) AS prod_r, product(1 + b) AS prod_b,
    product(1 + r) FILTER (d >= d_mtd) AS p_mtd, product(1 + r) FILTER (d >= d_3m) AS p_3m,
    product(1 + r) FILTER (d >= d_6m) AS p_6m, product(1 + r) FILTER (d >= d_ytd) AS p_ytd,
    product(1 + r) FILTER (d >= d_1y) AS p_1y,
    product(1 + r) FILTER (d >= d_3y) AS p_3y, count(*) FILTER (d >= d_3y) AS n_3y,
    product(1 + r) FILTER (d >= d_5y) AS p_5y, count(*) FILTER (d >= d_5y) AS n_5y,
    product(1 + r) FILTER (d >= d_10y) AS p_10y, count(*) FILTER (d >= d_10y) AS n_10y,
    -- autocorrelation of the prepared (excess) returns, for the Smart Sharpe/Sortino penalty
    abs(corr(e0, e)) AS coef,
    coalesce(max(i - runstart + 1) FILTER (r > 0), 0) AS max_wins,
    coalesce(max(i - runstart + 1) FILTER (r < 0), 0) AS max_losses,
    min(dd) AS dd_min, fsum(dd * dd) AS dd_sq, fsum(dd) / count(*) AS dd_mean,
    -- drawdown_details: a series that opens in a drawdown has that period only if another starts later
    count(*) FILTER (start_b) > 1 OR (count(*) FILTER (start_b) = 1 AND NOT bool_or(day_one AND ddb < 0)) AS bench_has_dd,
    list(r) AS rs, list(dd) AS dds
  FROM ser GROUP BY slot
),
-- from the returns themselves: numpy's quantiles, the parametric VaR (mean + z·std) and the mean of
-- the returns below it (cVaR as in 0.0.81), and the same for the drawdown series
lists AS (
  SELECT slot,
    ${quantile('xs', 0.01)} AS q01, ${quantile('xs', 0.05)} AS q05,
    ${quantile('xs', 0.95)} AS q95, ${quantile('xs', 0.99)} AS q99,
    list_avg(list_filter(xs, v -> v < var_r)) AS cvar_r, var_r, dd_sd, dd_var,
    list_avg(list_filter(dds, v -> v < dd_var)) AS dd_cvar
  FROM (
    SELECT *, ${NORM_PPF_05} * sqrt(m2 / (n - 1)) + mr AS var_r, ${NORM_PPF_05} * dd_sd + dd_mean AS dd_var
    FROM (
      SELECT slot, n, mr, dd_mean, dds, list_sort(rs) AS xs,
        -- two's m2 too, here from the list: fsum is exactly rounded, so the value is the same
        list_aggregate(list_transform(rs, v -> (v - mr) * (v - mr)), 'fsum') AS m2,
        sqrt(list_aggregate(list_transform(dds, v -> (v - dd_mean) * (v - dd_mean)), 'fsum') / (n - 1)) AS dd_sd
      FROM one
    )
  )
),
-- centred sums (two-pass, as pandas and numpy do), the deepest day (the earliest of equals), pandas'
-- skew and kurtosis (bias-corrected, tiny sums zeroed as pandas does) and the Prob. Sharpe Ratio
two AS (
  SELECT slot, m2, vb, cxy, ve, vdf, strftime(valley, '%Y-%m-%d') AS max_dd_date, skew, kurt, ${NORM_CDF}(psr_z) AS psr
  FROM (
    -- PSR in its 0.0.81 form: raw per-period Sharpe, excess kurtosis fed to the raw-kurtosis formula,
    -- and the annual rf subtracted from the per-period ratio
    SELECT *, (sh - rf) / CASE WHEN psr_v >= 0 THEN sqrt(psr_v) END AS psr_z
    FROM (
      SELECT *, (1 + (0.5 * sh * sh) - (skew * sh) + (((kurt - 3) / 4) * sh * sh)) / (n - 1) AS psr_v
      FROM (
        SELECT *, mr / sqrt(m2 / (n - 1)) AS sh,
          CASE WHEN abs(m2) < 1e-14 THEN 0
            ELSE (n * pow(n - 1, 0.5) / (n - 2)) * ((CASE WHEN abs(m3) < 1e-14 THEN 0 ELSE m3 END) / pow(m2, 1.5)) END AS skew,
          CASE WHEN abs((n - 2) * (n - 3) * (m2 * m2)) < 1e-14 THEN 0
            ELSE (CASE WHEN abs(n * (n + 1) * (n - 1) * m4) < 1e-14 THEN 0 ELSE n * (n + 1) * (n - 1) * m4 END)
                 / ((n - 2) * (n - 3) * (m2 * m2))
                 - 3 * pow(n - 1, 2) / ((n - 2) * (n - 3)) END AS kurt
        FROM (
          SELECT ser.slot, any_value(one.n) AS n, any_value(one.mr) AS mr, any_value(x.rf) AS rf,
            fsum((r - one.mr) * (r - one.mr)) AS m2, fsum((r - one.mr) * (r - one.mr) * (r - one.mr)) AS m3,
            fsum(((r - one.mr) * (r - one.mr)) * ((r - one.mr) * (r - one.mr))) AS m4,
            fsum((b - one.mb) * (b - one.mb)) AS vb, fsum((r - one.mr) * (b - one.mb)) AS cxy,
            fsum((e - one.me) * (e - one.me)) AS ve, fsum(((r - b) - one.mdf) * ((r - b) - one.mdf)) AS vdf,
            min(d) FILTER (dd = one.dd_min) AS valley
          FROM ser JOIN one USING (slot), x GROUP BY ser.slot
        )
      )
    )
  )
),
-- drawdown periods: the days in a drawdown after the same last peak (key -1: the days at a peak)
periods AS (
  SELECT slot, CASE WHEN dd < 0 THEN zi ELSE -1 END AS pk, min(d) AS p_start, max(d) AS p_end, min(dd) AS p_min,
    bool_or(day_one) AS opening, date_diff('day', min(d), max(d)) + 1 AS days
  FROM ser GROUP BY ALL
),
ddstat AS (
  SELECT slot,
    -- drawdown_details: a series that opens in a drawdown has that period only if another starts later
    CASE WHEN count(*) FILTER (pk >= 0) = 1 AND bool_or(opening) FILTER (pk >= 0) THEN 0 ELSE count(*) FILTER (pk >= 0) END AS n_periods,
    max(days) FILTER (pk >= 0) AS longest, avg(p_min * 100) FILTER (pk >= 0) / 100 AS avg_dd,
    avg(days) FILTER (pk >= 0) AS avg_days, min(p_min * 100) FILTER (pk >= 0) / 100 AS max_dd,
    strftime(arg_min(p_start, (p_min, p_start)) FILTER (pk >= 0), '%Y-%m-%d') AS max_dd_start,
    strftime(arg_min(p_end, (p_min, p_start)) FILTER (pk >= 0), '%Y-%m-%d') AS max_dd_end
  FROM periods GROUP BY slot
),
-- calendar aggregation: compounded per month (g = 1), quarter (2) and year (3); plain sums per month (Gain/Pain 1M)
per AS (
  SELECT slot, GROUPING(m, q) AS g, product(1 + r) - 1 AS c, product(1 + b) - 1 AS cb, fsum(r) AS sm
  FROM (SELECT slot, year(d) AS y, month(d) AS m, quarter(d) AS q, r, b FROM ser)
  GROUP BY GROUPING SETS ((slot, y, m), (slot, y, q), (slot, y))
),
cal AS (
  SELECT slot,
    product(1 + c) FILTER (g = 1) AS pm, count(*) FILTER (g = 1) AS nm,
    product(1 + c) FILTER (g = 3) AS py, count(*) FILTER (g = 3) AS ny,
    max(c) FILTER (g = 1) AS best_m, min(c) FILTER (g = 1) AS worst_m,
    max(c) FILTER (g = 3) AS best_y, min(c) FILTER (g = 3) AS worst_y,
    avg(c) FILTER (g = 1 AND c > 0 AND cb > 0) AS up_m, avg(c) FILTER (g = 1 AND c < 0 AND cb < 0) AS down_m,
    count(*) FILTER (g = 1 AND c > 0) AS m_pos, count(*) FILTER (g = 1 AND c <> 0) AS m_nz,
    count(*) FILTER (g = 2 AND c > 0) AS q_pos, count(*) FILTER (g = 2 AND c <> 0) AS q_nz,
    count(*) FILTER (g = 3 AND c > 0) AS y_pos, count(*) FILTER (g = 3 AND c <> 0) AS y_nz,
    fsum(sm) FILTER (g = 1) AS gpm_sum, coalesce(fsum(sm) FILTER (g = 1 AND sm < 0), 0) AS gpm_neg
  FROM per GROUP BY slot
),
-- every requested symbol, whether any source holds it, and its price days in the window
req AS (
  SELECT r.symbol, r.slot, x.rf, map_contains(best.prio, r.symbol) AS known
  FROM (SELECT unnest(syms) AS symbol, generate_subscripts(syms, 1) AS slot FROM p) r, x, best
),
tdays AS (SELECT slot, count(*) AS trading_days FROM rt WHERE slot > 0 GROUP BY slot)
-- the parts, one row each per symbol: computeMetricRows puts each symbol's together (slot 0: the benchmark)
SELECT 0 AS slot, map_contains(best.prio, p.bench) AS bench_known FROM p, best
UNION ALL BY NAME FROM req
UNION ALL BY NAME FROM tdays
UNION ALL BY NAME SELECT * EXCLUDE (rs, dds, first_d, last_d), least(dd_min, 0) AS maxdd_all,
  strftime(first_d, '%Y-%m-%d') AS start_period, strftime(last_d, '%Y-%m-%d') AS end_period FROM one
UNION ALL BY NAME FROM lists
UNION ALL BY NAME FROM two
UNION ALL BY NAME FROM ddstat
UNION ALL BY NAME FROM cal
`;
/* eslint-enable sql/no-interpolated-sql */

export type MetricsRow = Record<string, unknown> & {
  symbol: string;
  known: boolean;
  trading_days: number;
};

const CREATE_REQUEST = `CREATE TEMP TABLE IF NOT EXISTS compare_request AS
  SELECT NULL::DATE AS start_d, NULL::DATE AS end_d, NULL::DOUBLE AS rf, NULL::VARCHAR AS bench, NULL::VARCHAR[] AS syms`;
const SET_REQUEST = `UPDATE compare_request SET start_d = CAST(? AS DATE), end_d = CAST(? AS DATE), rf = CAST(? AS DOUBLE),
  bench = CAST(? AS VARCHAR), syms = string_split(CAST(? AS VARCHAR), ',')`;

/** One request at a time per engine: the request table is shared by the requests on that engine. */
const queues = new WeakMap<Engine, Promise<unknown>>();
const setUp = new WeakSet<Engine>();

/**
 * Runs the statement for all symbols at once and puts each symbol's parts together: one row per
 * distinct requested symbol, keyed by symbol, and whether the benchmark has prices. The request's
 * values go into a one-row temp table and the statement itself takes no parameters: DuckDB re-plans a
 * prepared statement that has parameters on every execution (measured: as costly as ~25% of the run),
 * while a parameter-free one, prepared once (`engine.all(sql, [])`), runs as planned.
 */
export async function computeMetricRows(
  engine: Engine,
  source: PriceSource,
  p: { symbols: string[]; start_date: string; end_date: string; benchmark: string; risk_free_rate: number },
): Promise<{ benchmarkKnown: boolean; rows: Map<string, MetricsRow> }> {
  const run = async () => {
    if (!setUp.has(engine)) {
      await engine.exec(CREATE_REQUEST);
      await engine.exec(NORM_CDF_MACROS);
      setUp.add(engine);
    }
    // distinct, in order: the slots of the per-symbol pipelines
    await engine.all(SET_REQUEST, [p.start_date, p.end_date, p.risk_free_rate, p.benchmark, [...new Set(p.symbols)].join(',')]);
    return engine.all<Record<string, unknown>>(METRICS_SQL.replace('{rows}', source.rowsOf('wanted')), []);
  };
  const done = (queues.get(engine) ?? Promise.resolve()).then(run, run);
  queues.set(engine, done.catch(() => undefined));
  const parts = await done;
  // each part has one row per symbol slot and its own columns; a symbol's row is their union
  const bySlot = new Map<number, Record<string, unknown>>();
  for (const part of parts) {
    const row = bySlot.get(part.slot as number) ?? {};
    for (const [k, v] of Object.entries(part)) if (v !== null) row[k] = v;
    bySlot.set(part.slot as number, row);
  }
  const rows = [...bySlot.values()].filter((r): r is MetricsRow => typeof r.symbol === 'string');
  // the per-symbol pipelines rely on rows arriving in date order; never compute on any other order
  if (rows.some((r) => r.in_order === false)) throw new Error('compare: DuckDB delivered a series out of date order');
  return {
    benchmarkKnown: bySlot.get(0)?.bench_known === true,
    rows: new Map(rows.map((r) => [r.symbol, { ...r, known: r.known === true, trading_days: (r.trading_days as number | undefined) ?? 0 }])),
  };
}
