import { describe, it, expect, afterAll } from 'vitest';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { newGeneration } from '../../../src/core/engine/generation.js';
import { resolveSchemes } from '../../../src/core/services/mf/resolve.js';
import { withCheckDigit } from '../../../src/core/contract/isin.js';

const FIRST = 100_000;
const SCHEMES = 5000;

/** A snapshot of SCHEMES live schemes, codes FIRST.. (ISINs are set where a test needs one). */
const SNAPSHOT = `
ATTACH ':memory:' AS mf;
CREATE TABLE mf.latest AS SELECT range::INTEGER AS scheme_code, 'Scheme ' || range AS scheme_name,
  NULL::VARCHAR AS isin, NULL::VARCHAR AS isin2, DATE '2010-01-01' AS first_date,
  DATE '2026-11-20' AS last_date, true AS is_active, 10.5::DECIMAL(18,4) AS nav, DATE '2026-11-20' AS nav_date
FROM range(${FIRST}, ${FIRST + SCHEMES})`;

const nameOf = async (engine: NodeEngine, id: string) => {
  const [r] = await resolveSchemes(engine, [id]);
  return r.ok ? r.scheme.scheme_name : null;
};

describe('resolveSchemes keeps what it resolved for one data generation (real DuckDB-WASM)', async () => {
  const engine = await NodeEngine.open();
  await engine.exec(SNAPSHOT);
  afterAll(() => engine.close());

  it('answers a code or ISIN again from the generation it was resolved in, and anew after a switch', async () => {
    newGeneration(engine);
    const isin = withCheckDigit('INF00A01B01');
    await engine.exec(`UPDATE mf.latest SET isin = '${isin}' WHERE scheme_code = ${FIRST + 1}`);
    expect(await nameOf(engine, String(FIRST))).toBe(`Scheme ${FIRST}`);
    expect(await nameOf(engine, isin)).toBe(`Scheme ${FIRST + 1}`);
    await engine.exec(`UPDATE mf.latest SET scheme_name = 'Renamed ' || scheme_code WHERE scheme_code IN (${FIRST}, ${FIRST + 1})`);
    expect(await nameOf(engine, String(FIRST))).toBe(`Scheme ${FIRST}`);
    expect(await nameOf(engine, isin)).toBe(`Scheme ${FIRST + 1}`);
    newGeneration(engine);
    expect(await nameOf(engine, String(FIRST))).toBe(`Renamed ${FIRST}`);
    expect(await nameOf(engine, isin)).toBe(`Renamed ${FIRST + 1}`);
  });

  it('keeps no answer for an identifier that found nothing', async () => {
    newGeneration(engine);
    const code = FIRST + SCHEMES;
    expect(await nameOf(engine, String(code))).toBeNull();
    await engine.exec(`INSERT INTO mf.latest SELECT ${code}, 'Late', NULL, NULL, DATE '2026-01-01', DATE '2026-11-20', true, 1, DATE '2026-11-20'`);
    expect(await nameOf(engine, String(code))).toBe('Late');
  });

  it('keeps at most 4096 identifiers, letting the oldest go first', async () => {
    newGeneration(engine);
    const codes = Array.from({ length: SCHEMES }, (_, i) => String(FIRST + i));
    for (let i = 0; i < codes.length; i += 50) {
      const batch = await resolveSchemes(engine, codes.slice(i, i + 50));
      expect(batch.every((r) => r.ok)).toBe(true);
    }
    await engine.exec(`UPDATE mf.latest SET scheme_name = 'Later ' || scheme_code`);
    expect(await nameOf(engine, codes[0])).toBe(`Later ${FIRST}`);
    expect(await nameOf(engine, codes.at(-1)!)).toBe(`Scheme ${FIRST + SCHEMES - 1}`);
    expect(await nameOf(engine, codes[SCHEMES - 4000])).toBe(`Scheme ${FIRST + SCHEMES - 4000}`);
  });

  it('an engine no store registered is asked every time', async () => {
    const plain = await NodeEngine.open();
    try {
      await plain.exec(SNAPSHOT);
      expect(await nameOf(plain, String(FIRST))).toBe(`Scheme ${FIRST}`);
      await plain.exec(`UPDATE mf.latest SET scheme_name = 'Now' WHERE scheme_code = ${FIRST}`);
      expect(await nameOf(plain, String(FIRST))).toBe('Now');
    } finally {
      await plain.close();
    }
  });
});
