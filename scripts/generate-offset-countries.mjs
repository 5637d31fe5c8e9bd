// Generates src/domain/offset-countries.json: for each UTC offset a published time may carry (+05:30), the countries
// that observe it in winter or in summer. Zones and their countries come from the tz database's zone.tab; the
// offsets from the runtime's ICU time-zone data, on 15 January and 15 July of the given year.
//
//   node scripts/generate-offset-countries.mjs /usr/share/zoneinfo/zone.tab 2025
import { readFileSync, writeFileSync } from 'node:fs';

const [input, year] = process.argv.slice(2);
if (!input || !/^\d{4}$/.test(year ?? '')) {
  console.error('usage: node scripts/generate-offset-countries.mjs <zone.tab> <year>');
  process.exit(2);
}

/** "GMT+05:30" (Intl longOffset) → "+05:30"; "GMT" → "+00:00". */
function offsetOf(zone, date) {
  const part = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(date)
    .find((p) => p.type === 'timeZoneName')?.value;
  if (part === undefined) return null;
  const match = /^GMT([+-]\d\d:\d\d)?$/.exec(part);
  return match === null ? null : (match[1] ?? '+00:00');
}

const offsets = new Map();
for (const line of readFileSync(input, 'utf8').split('\n')) {
  if (line.startsWith('#') || line.trim() === '') continue;
  const [country, , zone] = line.split('\t');
  if (!/^[A-Z]{2}$/.test(country ?? '') || zone === undefined) continue;
  for (const date of [new Date(`${year}-01-15T12:00:00Z`), new Date(`${year}-07-15T12:00:00Z`)]) {
    const offset = offsetOf(zone, date);
    if (offset === null) continue;
    const countries = offsets.get(offset) ?? new Set();
    countries.add(country.toLowerCase() === 'gb' ? 'gb' : country.toLowerCase());
    offsets.set(offset, countries);
  }
}
const sorted = Object.fromEntries(
  [...offsets.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([offset, countries]) => [offset, [...countries].sort()]),
);
const table = {
  source: `tz database zone.tab, offsets of ${year}-01-15 and ${year}-07-15 (ICU tz ${process.versions.tz ?? 'unknown'})`,
  generated_by: 'scripts/generate-offset-countries.mjs',
  offsets: sorted,
};
writeFileSync('src/domain/offset-countries.json', `${JSON.stringify(table, null, 1)}\n`);
console.log(`${Object.keys(sorted).length} offsets`);
