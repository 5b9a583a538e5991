import { Float64, Int32, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import type { Engine } from '../engine/engine.js';
import { parseAmfi, summarise, type AmfiFile } from './parse.js';

/** Where AMFI imports land: the user's own database, never the publishers'. */
export const AMFI_TABLES = { nav: 'amfi_nav', quality: 'amfi_quality' } as const;

const CREATE = `
CREATE TABLE IF NOT EXISTS user.amfi_nav (
  scheme_code INTEGER NOT NULL, date VARCHAR NOT NULL, nav DOUBLE, nav_text VARCHAR,
  scheme_name VARCHAR, isin VARCHAR, isin2 VARCHAR, plan VARCHAR, "option" VARCHAR,
  category VARCHAR, amc VARCHAR, source_file VARCHAR NOT NULL, source_line INTEGER,
  PRIMARY KEY (scheme_code, date));
CREATE TABLE IF NOT EXISTS user.amfi_quality (
  source_file VARCHAR NOT NULL, date VARCHAR, line INTEGER, scheme_code INTEGER,
  reason VARCHAR, value VARCHAR);`;

/**
 * Upsert on (scheme_code, date): importing the same file twice changes nothing, and a later file for
 * the same day replaces that day's values. The whole file is parsed before anything is written, so a
 * bad file imports nothing.
 */
const MERGE = `
DELETE FROM user.amfi_nav USING user.amfi_stage s WHERE amfi_nav.scheme_code = s.scheme_code AND amfi_nav.date = s.date;
INSERT INTO user.amfi_nav SELECT scheme_code, date, nav, nav_text, scheme_name, isin, isin2, plan, "option",
  category, amc, source_file, source_line FROM user.amfi_stage;
DELETE FROM user.amfi_quality WHERE source_file IN (SELECT DISTINCT source_file FROM user.amfi_stage);
DROP TABLE user.amfi_stage;`;

export async function importAmfiText(engine: Engine, text: string, sourceFile: string) {
  const file = parseAmfi(text);
  await engine.exec(CREATE);
  await engine.exec('BEGIN TRANSACTION');
  try {
    // Staged inside the user database: a DuckDB transaction may write to one database only.
    await engine.exec('DROP TABLE IF EXISTS user.amfi_stage');
    await engine.insertArrowIPC(stage(file, sourceFile), { schema: 'user', name: 'amfi_stage', create: true });
    await engine.exec(MERGE);
    for (const q of file.quality) {
      await engine.all('INSERT INTO user.amfi_quality VALUES (?, ?, ?, ?, ?, ?)', [
        sourceFile, file.rows[0].date, q.line, q.scheme_code, q.reason, q.value,
      ]);
    }
    await engine.exec('COMMIT');
  } catch (e) {
    await engine.exec('ROLLBACK');
    throw e;
  }
  return { file: sourceFile, ...summarise(file) };
}

function stage(file: AmfiFile, sourceFile: string): Uint8Array {
  const r = file.rows;
  const text = (f: (x: (typeof r)[number]) => string | null) => vectorFromArray(r.map(f), new Utf8());
  const table = new Table({
    scheme_code: vectorFromArray(r.map((x) => x.scheme_code), new Int32()),
    date: text((x) => x.date),
    nav: vectorFromArray(r.map((x) => x.nav), new Float64()),
    nav_text: text((x) => x.nav_text),
    scheme_name: text((x) => x.scheme_name),
    isin: text((x) => x.isin),
    isin2: text((x) => x.isin2),
    plan: text((x) => x.plan),
    option: text((x) => x.option),
    category: text((x) => x.category),
    amc: text((x) => x.amc),
    source_file: text(() => sourceFile),
    source_line: vectorFromArray(r.map((x) => x.line), new Int32()),
  });
  return tableToIPC(table, 'stream');
}
