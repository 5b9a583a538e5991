import type { Engine, Param } from '../engine/engine.js';
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
    await engine.exec(`DROP TABLE IF EXISTS user.amfi_stage; CREATE TABLE user.amfi_stage (${STAGE_COLUMNS})`);
    await stage(engine, file, sourceFile);
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

const STAGE_COLUMNS = `scheme_code INTEGER, date VARCHAR, nav DOUBLE, nav_text VARCHAR, scheme_name VARCHAR, isin VARCHAR,
  isin2 VARCHAR, plan VARCHAR, "option" VARCHAR, category VARCHAR, amc VARCHAR, source_file VARCHAR, source_line INTEGER`;
const STAGE_WIDTH = 13;
const BATCH = 500;

/**
 * Rows go in as bound parameters, a batch per statement. Not through Arrow: apache-arrow's builders
 * compile a function from a string (`new Function`), which the app's CSP (no 'unsafe-eval') forbids.
 */
async function stage(engine: Engine, file: AmfiFile, sourceFile: string): Promise<void> {
  for (let i = 0; i < file.rows.length; i += BATCH) {
    const chunk = file.rows.slice(i, i + BATCH);
    const row = `(${Array(STAGE_WIDTH).fill('?').join(', ')})`;
    const params: Param[] = chunk.flatMap((r) => [
      r.scheme_code, r.date, r.nav, r.nav_text, r.scheme_name, r.isin, r.isin2, r.plan, r.option, r.category, r.amc, sourceFile, r.line,
    ]);
    await engine.all(`INSERT INTO user.amfi_stage VALUES ${chunk.map(() => row).join(', ')}`, params);
  }
}
