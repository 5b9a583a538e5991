import type { Changes } from './shape.js';

const when = (t: string | null) => t ?? 'never';

/** The changes as lines for people (the CLI's text output). */
export function describeChanges(c: Changes): string[] {
  const out = [`changes from the sync of ${when(c.from.synced_at)} to the sync of ${when(c.to.synced_at)}`];
  const t = c.totals;
  const flagRows = Object.entries(t.new_flag_rows).filter(([, n]) => n > 0).map(([table, n]) => `${table} ${n}`);
  out.push(
    `totals: ${t.new_navs} new NAVs; ${t.new_indicator_points} new and ${t.revised_indicator_points} revised indicator points; ` +
      `new red-flag rows: ${flagRows.length ? flagRows.join(', ') : 'none'}`,
  );
  const w = c.watched;
  if (w.schemes.length + w.companies.length + w.indicators.length === 0) out.push('nothing changed for the watchlist');
  for (const s of w.schemes) {
    const pct = s.change_pct === null ? '' : ` (${s.change_pct >= 0 ? '+' : ''}${s.change_pct}%)`;
    out.push(`scheme ${s.scheme_code}: ${s.new_navs} new NAVs, last ${s.last_nav} on ${s.last_date}${pct}; ${s.revised_navs} revised`);
    for (const r of s.revisions) out.push(`  ${r.date}: ${r.old} -> ${r.new}`);
  }
  for (const co of w.companies) {
    const rows = Object.entries(co.new_rows).map(([table, n]) => `${table} ${n}`).join(', ') || 'no new rows';
    out.push(`company ${co.symbol}: ${rows}; score ${co.score_before ?? '-'} -> ${co.score_after ?? '-'}`);
  }
  for (const i of w.indicators) {
    out.push(`indicator ${i.indicator_id}: ${i.new_points} new points, ${i.revised_points} revised`);
    for (const r of i.revisions) out.push(`  ${r.date}: ${r.old} -> ${r.new}`);
  }
  return out;
}
