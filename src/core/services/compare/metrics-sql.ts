import type { Engine } from '../../engine/engine.js';
import type { PriceSource } from './prices.js';
import { NORM_CDF, NORM_CDF_MACROS, NORM_PPF_05 } from './normal.js';

/**
 * Every figure quantstats 0.0.81 computes for one symbol, in ONE statement over all requested
 * symbols: returns on each symbol's own dates, the benchmark re-aligned to them, `_match_dates`
 * trimming, drawdown periods, monthly/quarterly/yearly compounding, runs, quantiles (numpy's linear
 * interpolation, written out) and the regression. The quirks are quantstats' own; each is named in a
 * comment and in docs/compare.md. Formatting (strings, rounding, `-`) happens in format.ts.
 *
 * No parameters: the request is read from the temp table `compare_request` (see computeMetricRows).
 */
export const METRICS_SQL = /* sql */ `
WITH
p AS (SELECT * FROM compare_request),
-- _prepare_returns subtracts rf only when rf > 0, de-annualised over 252 periods
x AS (SELECT rf, CASE WHEN rf > 0 THEN pow(1 + rf, 1.0 / 252) - 1 ELSE 0 END AS rfd FROM p),
req AS (SELECT DISTINCT unnest(syms) AS symbol FROM p),
wanted AS (SELECT symbol FROM req UNION SELECT bench FROM p),
src AS MATERIALIZED (SELECT v.symbol, v.date AS d, v.close, v.prio FROM {prices} v JOIN wanted w ON v.symbol = w.symbol),
best AS (SELECT symbol, min(prio) AS prio FROM src GROUP BY symbol),
px AS MATERIALIZED (
  SELECT src.symbol, src.d, min(src.close) AS close FROM src JOIN best USING (symbol, prio), p
  WHERE src.d BETWEEN p.start_d AND p.end_d GROUP BY src.symbol, src.d
),
known AS (SELECT DISTINCT symbol FROM src),
tdays AS (SELECT symbol, count(*) AS trading_days FROM px GROUP BY symbol),
-- pct_change on each symbol's own dates, first row dropped
rt AS MATERIALIZED (
  SELECT symbol, d, ret FROM (
    SELECT symbol, d, close / lag(close) OVER w - 1 AS ret, row_number() OVER w AS k
    FROM px WINDOW w AS (PARTITION BY symbol ORDER BY d)
  ) WHERE k > 1
),
br AS (SELECT rt.d, rt.ret FROM rt, p WHERE rt.symbol = p.bench),
bl AS MATERIALIZED (SELECT d, sum(ln(1 + ret)) OVER (ORDER BY d ROWS UNBOUNDED PRECEDING) AS lp FROM br),
sr AS (SELECT rt.symbol, rt.d, rt.ret FROM rt JOIN req USING (symbol)),
-- _prepare_benchmark re-aligns only when the date sets differ
same AS MATERIALIZED (
  SELECT s.symbol, count(*) = (SELECT count(*) FROM br) AND count(*) = count(b.d) AS same
  FROM sr s LEFT JOIN br b ON b.d = s.d GROUP BY s.symbol
),
-- benchmark prices, backfilled onto the symbol's dates: the first benchmark date on or after each
-- (a window over both date sets; a benchmark row on the same date sorts after the symbol's row)
dates_sb AS (
  SELECT symbol, d, 0 AS kind, ret, NULL::DOUBLE AS lp FROM sr
  UNION ALL SELECT req.symbol, bl.d, 1, NULL, bl.lp FROM req, bl
),
asof_b AS (
  SELECT symbol, d, ret, lp FROM (
    SELECT symbol, d, kind, ret,
      first_value(lp IGNORE NULLS) OVER (PARTITION BY symbol ORDER BY d, kind ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS lp
    FROM dates_sb
  ) WHERE kind = 0
),
al AS MATERIALIZED (
  SELECT a.symbol, a.d, a.ret AS r,
    CASE WHEN sm.same THEN b.ret
         ELSE coalesce(exp(a.lp - lag(a.lp) OVER (PARTITION BY a.symbol ORDER BY a.d)) - 1, 0) END AS b
  FROM asof_b a JOIN same sm USING (symbol) LEFT JOIN br b ON b.d = a.d
),
-- _match_dates: both start at the later of their first non-zero returns
md AS MATERIALIZED (
  SELECT symbol,
    greatest(coalesce(min(d) FILTER (r <> 0), min(d)), coalesce(min(d) FILTER (b <> 0), min(d))) AS loc
  FROM al GROUP BY symbol
),
s AS MATERIALIZED (
  SELECT al.symbol, al.d, al.r, al.b, al.r - x.rfd AS e,
         row_number() OVER (PARTITION BY al.symbol ORDER BY al.d) AS i
  FROM al JOIN md USING (symbol), x WHERE al.d >= md.loc
),
mean AS MATERIALIZED (
  SELECT symbol, count(*) AS n, min(d) AS first_d, max(d) AS last_d,
    fsum(r) / count(*) AS mr, fsum(b) / count(*) AS mb, fsum(e) / count(*) AS me, fsum(r - b) / count(*) AS mdf,
    min(r) AS rmin, max(r) AS rmax,
    -- the trailing windows' first days, as DATEs once per symbol (not a TIMESTAMP cast per row)
    CAST(date_trunc('month', max(d)) AS DATE) AS d_mtd, CAST(max(d) - INTERVAL 3 MONTH AS DATE) AS d_3m,
    CAST(max(d) - INTERVAL 6 MONTH AS DATE) AS d_6m, CAST(date_trunc('year', max(d)) AS DATE) AS d_ytd,
    CAST(max(d) - INTERVAL 1 YEAR AS DATE) AS d_1y, CAST(max(d) - INTERVAL 35 MONTH AS DATE) AS d_3y,
    CAST(max(d) - INTERVAL 59 MONTH AS DATE) AS d_5y, CAST(max(d) - INTERVAL 10 YEAR AS DATE) AS d_10y
  FROM s GROUP BY symbol
),
-- centred sums (two-pass, as pandas and numpy do)
mom AS MATERIALIZED (
  SELECT s.symbol,
    fsum((r - mr) * (r - mr)) AS m2, fsum((r - mr) * (r - mr) * (r - mr)) AS m3,
    fsum(((r - mr) * (r - mr)) * ((r - mr) * (r - mr))) AS m4,
    fsum((b - mb) * (b - mb)) AS vb, fsum((r - mr) * (b - mb)) AS cxy,
    fsum((e - me) * (e - me)) AS ve, fsum(((r - b) - mdf) * ((r - b) - mdf)) AS vdf,
    fsum(e) FILTER (e > 0) AS e_pos, fsum(e) FILTER (e < 0) AS e_neg,
    coalesce(fsum(e * e) FILTER (e < 0), 0) AS e_down,
    count(*) FILTER (r <> 0) AS nz, count(*) FILTER (r > 0) AS npos, count(*) FILTER (r < 0) AS nneg,
    count(*) FILTER (r >= 0) AS nwin0,
    -- avg_return/avg_win/avg_loss mask the whole frame and dropna() rows: the benchmark must agree
    avg(r) FILTER (r <> 0 AND b <> 0) AS avg_ret, avg(r) FILTER (r > 0 AND b > 0) AS avg_win,
    avg(r) FILTER (r < 0 AND b < 0) AS avg_loss, avg(r) FILTER (r < 0) AS avg_neg,
    avg(r) FILTER (r >= 0) AS avg_win0,
    fsum(r) AS sum_r, coalesce(fsum(r) FILTER (r >= 0), 0) AS sum_win0, coalesce(fsum(r) FILTER (r < 0), 0) AS sum_neg,
    product(1 + r) AS prod_r, product(1 + b) AS prod_b,
    product(1 + r) FILTER (d >= d_mtd) AS p_mtd,
    product(1 + r) FILTER (d >= d_3m) AS p_3m,
    product(1 + r) FILTER (d >= d_6m) AS p_6m,
    product(1 + r) FILTER (d >= d_ytd) AS p_ytd,
    product(1 + r) FILTER (d >= d_1y) AS p_1y,
    product(1 + r) FILTER (d >= d_3y) AS p_3y,
    count(*) FILTER (d >= d_3y) AS n_3y,
    product(1 + r) FILTER (d >= d_5y) AS p_5y,
    count(*) FILTER (d >= d_5y) AS n_5y,
    product(1 + r) FILTER (d >= d_10y) AS p_10y,
    count(*) FILTER (d >= d_10y) AS n_10y
  FROM s JOIN mean USING (symbol) GROUP BY s.symbol
),
-- pandas skew/kurt (bias-corrected, tiny sums zeroed as pandas does) and the Prob. Sharpe Ratio in its
-- 0.0.81 form: raw per-period Sharpe, excess kurtosis fed to the raw-kurtosis formula, and the
-- annual rf subtracted from the per-period ratio
moments AS (
  SELECT mean.symbol, mean.n, mean.mr / sqrt(mom.m2 / (mean.n - 1)) AS sh,
    CASE WHEN abs(mom.m2) < 1e-14 THEN 0
      ELSE (mean.n * pow(mean.n - 1, 0.5) / (mean.n - 2)) * ((CASE WHEN abs(mom.m3) < 1e-14 THEN 0 ELSE mom.m3 END) / pow(mom.m2, 1.5)) END AS skew,
    CASE WHEN abs((mean.n - 2) * (mean.n - 3) * (mom.m2 * mom.m2)) < 1e-14 THEN 0
      ELSE (CASE WHEN abs(mean.n * (mean.n + 1) * (mean.n - 1) * mom.m4) < 1e-14 THEN 0 ELSE mean.n * (mean.n + 1) * (mean.n - 1) * mom.m4 END)
           / ((mean.n - 2) * (mean.n - 3) * (mom.m2 * mom.m2))
           - 3 * pow(mean.n - 1, 2) / ((mean.n - 2) * (mean.n - 3)) END AS kurt
  FROM mean JOIN mom USING (symbol)
),
shape AS (
  SELECT symbol, skew, kurt,
    ${NORM_CDF}((sh - x.rf) / CASE WHEN v >= 0 THEN sqrt(v) END) AS psr
  FROM (SELECT *, (1 + (0.5 * sh * sh) - (skew * sh) + (((kurt - 3) / 4) * sh * sh)) / (n - 1) AS v FROM moments), x
),
-- autocorrelation penalty (Smart Sharpe/Sortino) of the prepared (excess) returns
lagged AS (SELECT symbol, lag(e) OVER (PARTITION BY symbol ORDER BY i) AS e0, e AS e1 FROM s),
ac AS (SELECT symbol, abs(corr(e0, e1)) AS coef FROM lagged WHERE e0 IS NOT NULL GROUP BY symbol),
pen AS (
  SELECT mean.symbol, sqrt(1 + 2 * coalesce(fsum(((mean.n - k) / mean.n) * pow(ac.coef, k)), 0)) AS penalty
  FROM mean JOIN ac USING (symbol), range(1, (SELECT max(n) FROM mean)) t(k)
  WHERE k < mean.n GROUP BY mean.symbol
),
-- quantiles, numpy 'linear': virtual index (n-1)*q, lerp from the nearer end
sorted AS (SELECT symbol, list_sort(list(r)) AS xs, count(*) AS n FROM s GROUP BY symbol),
qpts AS (
  SELECT symbol, q.q, (n - 1) * q.q - floor((n - 1) * q.q) AS t,
    xs[least(CAST(floor((n - 1) * q.q) AS BIGINT), n - 1) + 1] AS a,
    xs[least(CAST(floor((n - 1) * q.q) AS BIGINT) + 1, n - 1) + 1] AS bb
  FROM sorted, (VALUES (0.01), (0.05), (0.95), (0.99)) q(q)
),
quant AS (
  SELECT symbol,
    max(CASE WHEN t >= 0.5 THEN bb - (bb - a) * (1 - t) ELSE a + (bb - a) * t END) FILTER (q = 0.01) AS q01,
    max(CASE WHEN t >= 0.5 THEN bb - (bb - a) * (1 - t) ELSE a + (bb - a) * t END) FILTER (q = 0.05) AS q05,
    max(CASE WHEN t >= 0.5 THEN bb - (bb - a) * (1 - t) ELSE a + (bb - a) * t END) FILTER (q = 0.95) AS q95,
    max(CASE WHEN t >= 0.5 THEN bb - (bb - a) * (1 - t) ELSE a + (bb - a) * t END) FILTER (q = 0.99) AS q99
  FROM qpts GROUP BY symbol
),
-- runs of wins and of losses
runs AS (
  SELECT symbol, sign(r) AS sg, i - row_number() OVER (PARTITION BY symbol, sign(r) ORDER BY i) AS g FROM s
),
cons AS (
  SELECT symbol,
    coalesce(max(len) FILTER (sg > 0), 0) AS max_wins, coalesce(max(len) FILTER (sg < 0), 0) AS max_losses
  FROM (SELECT symbol, sg, g, count(*) AS len FROM runs WHERE sg <> 0 GROUP BY ALL) GROUP BY symbol
),
-- calendar aggregation: compounded per month, quarter and year; plain sums per month (Gain/Pain 1M)
per AS (
  SELECT symbol, 'M' AS kind, year(d) AS y, month(d) AS sub, product(1 + r) - 1 AS c, product(1 + b) - 1 AS cb, fsum(r) AS sm FROM s GROUP BY ALL
  UNION ALL SELECT symbol, 'Q', year(d), quarter(d), product(1 + r) - 1, product(1 + b) - 1, fsum(r) FROM s GROUP BY ALL
  UNION ALL SELECT symbol, 'Y', year(d), 0, product(1 + r) - 1, product(1 + b) - 1, fsum(r) FROM s GROUP BY ALL
),
cal AS (
  SELECT symbol,
    product(1 + c) FILTER (kind = 'M') AS pm, count(*) FILTER (kind = 'M') AS nm,
    product(1 + c) FILTER (kind = 'Y') AS py, count(*) FILTER (kind = 'Y') AS ny,
    max(c) FILTER (kind = 'M') AS best_m, min(c) FILTER (kind = 'M') AS worst_m,
    max(c) FILTER (kind = 'Y') AS best_y, min(c) FILTER (kind = 'Y') AS worst_y,
    avg(c) FILTER (kind = 'M' AND c > 0 AND cb > 0) AS up_m, avg(c) FILTER (kind = 'M' AND c < 0 AND cb < 0) AS down_m,
    count(*) FILTER (kind = 'M' AND c > 0) AS m_pos, count(*) FILTER (kind = 'M' AND c <> 0) AS m_nz,
    count(*) FILTER (kind = 'Q' AND c > 0) AS q_pos, count(*) FILTER (kind = 'Q' AND c <> 0) AS q_nz,
    count(*) FILTER (kind = 'Y' AND c > 0) AS y_pos, count(*) FILTER (kind = 'Y' AND c <> 0) AS y_nz,
    fsum(sm) FILTER (kind = 'M') AS gpm_sum, coalesce(fsum(sm) FILTER (kind = 'M' AND sm < 0), 0) AS gpm_neg
  FROM per GROUP BY symbol
),
-- drawdowns on quantstats' own price path: numpy's cumprod multiplies strictly left to right, and
-- a price that returns exactly to its old peak must give exactly 0 (a new period starts after it),
-- so the cumulative product is folded in order, in three levels: from scratch up to every 512th row,
-- from there up to every 32nd row, then within each block of 32 (multiplying by 1.0 first is exact). to_prices: 1 + (cumprod - 1); baseline 1.0 before day one.
fac AS MATERIALIZED (SELECT symbol, list(1 + r ORDER BY i) AS fr, list(1 + b ORDER BY i) AS fb, count(*) AS n FROM s GROUP BY symbol),
sblk AS MATERIALIZED (
  SELECT symbol, k,
    CASE WHEN k = 0 THEN 1.0 ELSE list_reduce(list_slice(fr, 1, k * 512), (a, x) -> a * x) END AS base_r,
    CASE WHEN k = 0 THEN 1.0 ELSE list_reduce(list_slice(fb, 1, k * 512), (a, x) -> a * x) END AS base_b
  FROM fac, range(0, (SELECT max(n) FROM fac) // 512 + 1) t(k) WHERE k * 512 < fac.n
),
blk AS MATERIALIZED (
  SELECT fac.symbol, j,
    list_reduce(list_prepend(sblk.base_r, list_slice(fr, sblk.k * 512 + 1, j * 32)), (a, x) -> a * x) AS base_r,
    list_reduce(list_prepend(sblk.base_b, list_slice(fb, sblk.k * 512 + 1, j * 32)), (a, x) -> a * x) AS base_b,
    list_slice(fr, j * 32 + 1, j * 32 + 32) AS blk_r, list_slice(fb, j * 32 + 1, j * 32 + 32) AS blk_b
  FROM fac, range(0, (SELECT max(n) FROM fac) // 32 + 1) t(j), sblk
  WHERE j * 32 < fac.n AND sblk.symbol = fac.symbol AND sblk.k = (j * 32) // 512
),
cum AS MATERIALIZED (
  SELECT s.symbol, s.i, s.d, s.r, s.b,
    1 + (list_reduce(list_prepend(blk.base_r, list_slice(blk.blk_r, 1, (s.i - 1) % 32 + 1)), (a, x) -> a * x) - 1) AS pr,
    1 + (list_reduce(list_prepend(blk.base_b, list_slice(blk.blk_b, 1, (s.i - 1) % 32 + 1)), (a, x) -> a * x) - 1) AS pb
  FROM s JOIN blk ON blk.symbol = s.symbol AND blk.j = (s.i - 1) // 32
),
dds AS MATERIALIZED (
  SELECT symbol, i, d, r,
    pr / greatest(1.0, max(pr) OVER w) - 1 AS dd,
    pb / greatest(1.0, max(pb) OVER w) - 1 AS ddb
  FROM cum WINDOW w AS (PARTITION BY symbol ORDER BY i ROWS UNBOUNDED PRECEDING)
),
ddprev AS (
  SELECT symbol, i, d, dd, ddb,
    dd < 0 AND (i = 1 OR lag(dd) OVER w = 0) AS start_r, ddb < 0 AND (i = 1 OR lag(ddb) OVER w = 0) AS start_b
  FROM dds WINDOW w AS (PARTITION BY symbol ORDER BY i)
),
ddflag AS MATERIALIZED (
  SELECT symbol, i, d, dd, ddb,
    sum(CASE WHEN start_r THEN 1 ELSE 0 END) OVER w AS gr, sum(CASE WHEN start_b THEN 1 ELSE 0 END) OVER w AS gb
  FROM ddprev WINDOW w AS (PARTITION BY symbol ORDER BY i ROWS UNBOUNDED PRECEDING)
),
periods AS MATERIALIZED (
  SELECT symbol, gr, min(d) AS p_start, max(d) AS p_end, min(i) AS first_i, min(dd) AS p_min,
    first(d ORDER BY dd, i) AS valley, date_diff('day', min(d), max(d)) + 1 AS days
  FROM ddflag WHERE dd < 0 GROUP BY symbol, gr
),
-- drawdown_details: a series that opens in a drawdown has that period only if another one starts later
valid AS (
  SELECT * FROM periods
  QUALIFY NOT (first_i = 1 AND count(*) OVER (PARTITION BY symbol) = 1)
),
ddstat AS (
  SELECT symbol, count(*) AS n_periods, max(days) AS longest, avg(p_min * 100) / 100 AS avg_dd, avg(days) AS avg_days,
    first(p_min * 100 ORDER BY p_min, p_start) / 100 AS max_dd, first(valley ORDER BY p_min, p_start) AS max_dd_date,
    first(p_start ORDER BY p_min, p_start) AS max_dd_start, first(p_end ORDER BY p_min, p_start) AS max_dd_end
  FROM valid GROUP BY symbol
),
bperiods AS (
  SELECT symbol, gb, min(i) AS first_i FROM ddflag WHERE ddb < 0 GROUP BY symbol, gb
),
bstat AS (
  SELECT symbol, count(*) > 1 OR (count(*) = 1 AND min(first_i) > 1) AS bench_has_dd FROM bperiods GROUP BY symbol
),
ddagg AS (
  SELECT dds.symbol, least(min(dd), 0) AS maxdd_all, fsum(dd * dd) AS dd_sq, fsum(dd) / count(*) AS dd_mean, count(*) AS n
  FROM dds GROUP BY dds.symbol
),
ddvar AS (
  SELECT dds.symbol, sqrt(fsum((dd - dd_mean) * (dd - dd_mean)) / (ddagg.n - 1)) AS dd_sd
  FROM dds JOIN ddagg USING (symbol) GROUP BY dds.symbol, ddagg.n
),
ddcvar AS (
  SELECT dds.symbol, ${NORM_PPF_05} * dd_sd + dd_mean AS dd_var,
    avg(dd) FILTER (dd < ${NORM_PPF_05} * dd_sd + dd_mean) AS dd_cvar
  FROM dds JOIN ddagg USING (symbol) JOIN ddvar USING (symbol) GROUP BY ALL
),
-- parametric VaR of the returns and the mean of the returns below it (cVaR as in 0.0.81)
rvar AS (
  SELECT mean.symbol, ${NORM_PPF_05} * sqrt(mom.m2 / (mean.n - 1)) + mean.mr AS var_r FROM mean JOIN mom USING (symbol)
),
rcvar AS (
  SELECT s.symbol, avg(s.r) FILTER (s.r < rvar.var_r) AS cvar_r FROM s JOIN rvar USING (symbol) GROUP BY s.symbol
)
SELECT req.symbol, known.symbol IS NOT NULL AS known, coalesce(tdays.trading_days, 0) AS trading_days,
  strftime(mean.first_d, '%Y-%m-%d') AS start_period, strftime(mean.last_d, '%Y-%m-%d') AS end_period,
  mean.n, mean.mr, mean.mb, mean.me, mean.mdf, mean.rmin, mean.rmax,
  mom.* EXCLUDE (symbol), x.rf,
  pen.penalty, quant.q01, quant.q05, quant.q95, quant.q99, cons.max_wins, cons.max_losses,
  cal.* EXCLUDE (symbol),
  coalesce(ddstat.n_periods, 0) AS n_periods, ddstat.longest, ddstat.avg_dd, ddstat.avg_days, ddstat.max_dd,
  strftime(ddstat.max_dd_date, '%Y-%m-%d') AS max_dd_date, strftime(ddstat.max_dd_start, '%Y-%m-%d') AS max_dd_start,
  strftime(ddstat.max_dd_end, '%Y-%m-%d') AS max_dd_end,
  coalesce(bstat.bench_has_dd, false) AS bench_has_dd,
  ddagg.maxdd_all, ddagg.dd_sq, ddcvar.dd_var, ddcvar.dd_cvar, rvar.var_r, rcvar.cvar_r,
  shape.skew, shape.kurt, shape.psr, ddvar.dd_sd
FROM req
CROSS JOIN x
LEFT JOIN known USING (symbol)
LEFT JOIN tdays USING (symbol)
LEFT JOIN mean USING (symbol)
LEFT JOIN mom USING (symbol)
LEFT JOIN pen USING (symbol)
LEFT JOIN quant USING (symbol)
LEFT JOIN cons USING (symbol)
LEFT JOIN cal USING (symbol)
LEFT JOIN ddstat USING (symbol)
LEFT JOIN bstat USING (symbol)
LEFT JOIN ddagg USING (symbol)
LEFT JOIN ddcvar USING (symbol)
LEFT JOIN ddvar USING (symbol)
LEFT JOIN rvar USING (symbol)
LEFT JOIN rcvar USING (symbol)
LEFT JOIN shape USING (symbol)
`;

export type MetricsRow = Record<string, unknown> & {
  symbol: string;
  known: boolean;
  trading_days: number;
};

const CREATE_REQUEST =
  'CREATE TEMP TABLE IF NOT EXISTS compare_request (start_d DATE, end_d DATE, rf DOUBLE, bench VARCHAR, syms VARCHAR[])';
const SET_REQUEST = `INSERT INTO compare_request
  SELECT CAST(? AS DATE), CAST(? AS DATE), CAST(? AS DOUBLE), CAST(? AS VARCHAR), string_split(CAST(? AS VARCHAR), ',')`;

/** One request at a time per engine: the request table is shared by the requests on that engine. */
const queues = new WeakMap<Engine, Promise<unknown>>();
const setUp = new WeakSet<Engine>();

/**
 * Runs the statement for all symbols at once; one row per distinct requested symbol. The request's
 * values go into a one-row temp table and the statement itself takes no parameters: DuckDB re-plans a
 * prepared statement that has parameters on every execution (measured: as costly as ~25% of the run),
 * while a parameter-free one, prepared once (`engine.all(sql, [])`), runs as planned.
 */
export async function computeMetricRows(
  engine: Engine,
  source: PriceSource,
  p: { symbols: string[]; start_date: string; end_date: string; benchmark: string; risk_free_rate: number },
): Promise<Map<string, MetricsRow>> {
  const run = async () => {
    if (!setUp.has(engine)) {
      await engine.exec(CREATE_REQUEST);
      await engine.exec(NORM_CDF_MACROS);
      setUp.add(engine);
    }
    await engine.exec('DELETE FROM compare_request');
    await engine.all(SET_REQUEST, [p.start_date, p.end_date, p.risk_free_rate, p.benchmark, p.symbols.join(',')]);
    return engine.all<MetricsRow>(METRICS_SQL.replace('{prices}', source.relation), []);
  };
  const done = (queues.get(engine) ?? Promise.resolve()).then(run, run);
  queues.set(engine, done.catch(() => undefined));
  const rows = await done;
  return new Map(rows.map((r) => [r.symbol, r]));
}
