// A whole number with en-US thousands separators ('4,000'), as toLocaleString('en-US') writes it,
// without Intl: the first toLocaleString call in a page loads ICU's number formatting (35 to 150 ms
// measured in this Chromium on the shared machine, four times that on Lighthouse's phone), and the
// shared schemas build their messages with these texts when they load, on the landing page's path.
export function groupThousands(value: number): string {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return value.toLocaleString('en-US');
  // Groups of three from the right, by hand: a lookahead to the end from every digit is quadratic.
  const digits = String(Math.abs(value));
  let grouped = '';
  for (let i = 0; i < digits.length; i++) grouped += (i > 0 && (digits.length - i) % 3 === 0 ? ',' : '') + digits[i];
  return value < 0 ? `-${grouped}` : grouped;
}
