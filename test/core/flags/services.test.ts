import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_NAMES, type Manifest } from '../../../src/core/contract/flags.js';
import { freshness, listTables } from '../../../src/core/services/flags/freshness.js';
import { companyData, companyTsv } from '../../../src/core/services/flags/company.js';
import { tinyFlags, type TinyFlags } from './fixture.js';

let t: TinyFlags;
let manifest: Manifest;
beforeAll(async () => {
  t = await tinyFlags();
  manifest = JSON.parse(await readFile(path.join(t.dir, 'manifest.json'), 'utf8'));
});
afterAll(() => t.cleanup());

describe('flags services without sync metadata', () => {
  it('/freshness and /tables count the rows but leave the sync time null when nothing was synced', async () => {
    const f = await freshness(t.engine);
    expect(f.last_synced_at).toBeNull();
    expect(f.generated_at).toBeNull();
    expect(f.tables.map((x) => [x.table, x.row_count, x.last_date])).toEqual(
      TABLE_NAMES.map((n) => [n, manifest.tables[n].row_count, manifest.tables[n].last_date]),
    );
    const tables = await listTables(t.engine);
    expect(tables.total_rows).toBe(manifest.total_rows);
    expect(tables.tables.every((x) => x.last_synced_at === null)).toBe(true);
  });

  it('a company TSV section per table, NULLs empty, DECIMALs at their scale', async () => {
    const r = await companyData(t.engine, { identifier: 'SAPPHAGRO', tables: ['credit_ratings', 'rpt_transactions'], format: 'tsv' });
    expect(companyTsv(r)).toBe(
      [
        '# credit_ratings',
        'symbol\tisin\tcompany_name\trating_date\tagency\tinstrument\tinstrument_amount_cr\trating_scale\trating\trating_grade\tprevious_grade\trating_action\toutlook\twatch',
        '',
        '# rpt_transactions',
        'symbol\tisin\tcompany_name\tperiod_end\tcounterparty\trelationship\tnature\tamount_cr\thalf_year_revenue_cr',
        `SAPPHAGRO\t${r.isin}\tSapphire Agro Foods Limited\t2026-09-30\tSapphire Agri LLP\tEntity controlled by KMP\tPurchase of goods\t50.00\t`,
        '',
      ].join('\n'),
    );
  });
});
