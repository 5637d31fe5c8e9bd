import { guessCountry } from '../src/engine/country-guess.js';
import { loadRealPages } from '../test/support/real-pages.js';
import { figures, foldFigures, isHoldOut, type Judged, judge } from '../test/support/real-pages-eval.js';

const judged = loadRealPages().map(judge);
const variants: Record<string, (j: Judged) => Judged> = {
  all: (j) => j,
  none: (j) => ({ ...j, country: guessCountry({ ...j.countryInput, textMarkers: null }).code }),
  no_spelling: (j) => ({
    ...j,
    country: guessCountry({
      ...j.countryInput,
      textMarkers: { ...j.countryInput.textMarkers!, us_spellings: 0 },
    }).code,
  }),
  no_zone: (j) => ({
    ...j,
    country: guessCountry({
      ...j.countryInput,
      textMarkers: { ...j.countryInput.textMarkers!, time_zones: {} },
    }).code,
  }),
  no_currency: (j) => ({
    ...j,
    country: guessCountry({
      ...j.countryInput,
      textMarkers: { ...j.countryInput.textMarkers!, currencies: {} },
    }).code,
  }),
  no_privacy: (j) => ({
    ...j,
    country: guessCountry({
      ...j.countryInput,
      textMarkers: { ...j.countryInput.textMarkers!, us_privacy_notice: false },
    }).code,
  }),
};
for (const [name, f] of Object.entries(variants)) {
  const v = judged.map(f);
  const t = figures(v.filter((j) => !isHoldOut(j.page.id))),
    h = figures(v.filter((j) => isHoldOut(j.page.id))),
    k = foldFigures(v);
  console.log(
    name.padEnd(12),
    `tuning ${t.countryAccuracy}/${t.countryPrecision}  hold-out ${h.countryAccuracy}/${h.countryPrecision}  5-fold mean ${k.mean.countryAccuracy}/${k.mean.countryPrecision} min ${k.min.countryAccuracy}/${k.min.countryPrecision}`,
  );
}
