/** One scheme row of an AMFI NAV file. */
export interface AmfiRowSpec {
  code: number;
  name: string;
  isin: string | null;
  isin2?: string | null;
  nav: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * An AMFI daily NAV report for one day in its historical layout (as ../shared/data/real-amfi), with a
 * category line and an AMC line above the rows, CRLF line ends and the closing line end AMFI writes.
 */
export function amfiDailyFile(date: string, rows: AmfiRowSpec[], amc = 'Sample Mutual Fund'): string {
  const [y, m, d] = date.split('-');
  const day = `${d}-${MONTHS[Number(m) - 1]}-${y}`;
  return [
    'Scheme Code;Scheme Name;ISIN Div Payout/ISIN Growth;ISIN Div Reinvestment;Net Asset Value;Repurchase Price;Sale Price;Date',
    '',
    'Open Ended Schemes ( Equity Scheme - Large Cap Fund )',
    '',
    amc,
    ...rows.map((r) => `${r.code};${r.name};${r.isin ?? ''};${r.isin2 ?? ''};${r.nav};;;${day}`),
    '',
  ].join('\r\n');
}
