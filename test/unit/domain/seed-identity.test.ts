import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/domain/errors.js';
import { resolveSeedIdentity } from '../../../src/domain/seed-identity.js';

const base = { country: 'sg', category: 'news' };

function pathsOf(body: Parameters<typeof resolveSeedIdentity>[0]): string[] {
  try {
    resolveSeedIdentity(body);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors.map((e) => e.path);
  }
  throw new Error('accepted');
}

describe('resolveSeedIdentity', () => {
  it('derives the identity from a domain, a host or a URL (which is then the entry page)', () => {
    expect(resolveSeedIdentity({ ...base, domain: 'MOM.gov.sg' })).toEqual({
      registrableDomain: 'mom.gov.sg',
      authority: 'gov',
      domainId: 'gov:sg:mom.gov.sg',
      seedId: 'gov:sg:mom.gov.sg::news',
      contentType: 'news',
      impliedEntryUrl: 'https://mom.gov.sg/',
    });
    expect(resolveSeedIdentity({ ...base, domain: 'https://www.mom.gov.sg/newsroom' }).impliedEntryUrl).toBe(
      'https://www.mom.gov.sg/newsroom',
    );
    expect(resolveSeedIdentity({ ...base, domain: 'mom.gov.sg', content_type: 'press' }).seedId).toBe(
      'gov:sg:mom.gov.sg::press',
    );
  });

  it('takes the identity fields of a GET body, keeping the authority a domain id names', () => {
    const fromSeedId = resolveSeedIdentity({ ...base, seed_id: 'ngo:sg:mom.gov.sg::news' });
    expect(fromSeedId).toMatchObject({ authority: 'ngo', seedId: 'ngo:sg:mom.gov.sg::news' });
    expect(
      resolveSeedIdentity({
        ...base,
        domain: 'www.mom.gov.sg',
        registrable_domain: 'MOM.gov.sg.',
        domain_id: 'gov:sg:mom.gov.sg',
        seed_id: 'gov:sg:mom.gov.sg::news',
      }).seedId,
    ).toBe('gov:sg:mom.gov.sg::news');
    expect(resolveSeedIdentity({ ...base, registrable_domain: 'example.com' }).domainId).toBe(
      'com:sg:example.com',
    );
  });

  it('names every field that disagrees', () => {
    expect(
      pathsOf({
        ...base,
        domain: 'mom.gov.sg',
        registrable_domain: 'moh.gov.sg',
        domain_id: 'gov:my:mom.gov.sg',
        seed_id: 'gov:sg:mom.gov.sg::policy',
      }),
    ).toEqual(['body.registrable_domain', 'body.domain_id', 'body.seed_id', 'body.seed_id']);
    expect(pathsOf({ ...base, domain_id: 'gov:sg:moh.gov.sg', domain: 'mom.gov.sg' })).toEqual([
      'body.domain_id',
    ]);
    expect(pathsOf({ ...base })).toEqual(['body.domain']);
    expect(pathsOf({ ...base, seed_id: 'nonsense' })).toEqual(['body.seed_id']);
    expect(pathsOf({ ...base, registrable_domain: 'co.uk' })).toEqual(['body.registrable_domain']);
    expect(pathsOf({ ...base, domain: '127.0.0.1' })).toEqual(['body.domain']);
  });
});
