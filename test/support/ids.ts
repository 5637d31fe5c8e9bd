// Ids of the fake internet's sites. Their hosts end in no country's TLD, so their kind is `other`; the
// country is the one the test asks for.

/** The domain id of a fake-internet host: `other:<country>:<host>`. */
export function domainIdOf(host: string, country = 'sg'): string {
  return `other:${country}:${host}`;
}

/** The id of that domain's news seed: `other:<country>:<host>::news`. */
export function seedIdOf(host: string, country = 'sg'): string {
  return `${domainIdOf(host, country)}::news`;
}
