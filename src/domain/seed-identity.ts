// Who a new seed is — registrable domain, domain_id, seed_id — from a create body. A person names the source by
// `domain` (a host or URL); a seed read with GET names it by `registrable_domain`, `domain_id` and `seed_id`. Any
// of them will do, and every one given must agree with the others (docs/design.md §3: a GET body can be POSTed back).
import {
  type Authority,
  type AuthorityOverrides,
  classifyHost,
  domainIdOf,
  parseDomainId,
  parseSeedId,
  seedIdOf,
} from './domains.js';
import { type FieldError, ValidationError } from './errors.js';
import { normalizeUrl } from './urls.js';

export interface SeedIdentityInput {
  domain?: string | undefined;
  registrable_domain?: string | undefined;
  domain_id?: string | undefined;
  seed_id?: string | undefined;
  country: string;
  category: string;
  content_type?: string | undefined;
}

export interface SeedIdentity {
  registrableDomain: string;
  authority: Authority;
  domainId: string;
  seedId: string;
  contentType: string;
  /** The entry page the body implies: the URL given as `domain`, else the registrable domain's homepage. */
  impliedEntryUrl: string;
}

/** Throws a ValidationError naming every field that disagrees. */
export function resolveSeedIdentity(body: SeedIdentityInput, overrides?: AuthorityOverrides): SeedIdentity {
  const errors: FieldError[] = [];
  const fail = (path: string, message: string): never => {
    errors.push({ path, message });
    throw new ValidationError(errors);
  };
  const contentType = body.content_type ?? body.category;

  const fromSeedId = body.seed_id === undefined ? null : parseSeedId(body.seed_id);
  if (body.seed_id !== undefined && !fromSeedId)
    fail('body.seed_id', 'must be a seed id: {authority}:{country}:{domain}::{content_type}');
  const domainIdText = body.domain_id ?? fromSeedId?.domainId;
  const domainIdPath = body.domain_id !== undefined ? 'body.domain_id' : 'body.seed_id';
  const fromDomainId = domainIdText === undefined ? null : parseDomainId(domainIdText);
  if (domainIdText !== undefined && !fromDomainId)
    fail(domainIdPath, 'must be a domain id: {authority}:{country}:{registrable domain}');

  // The source, from the most specific field given.
  const [sourcePath, sourceText] =
    body.domain !== undefined
      ? ['body.domain', body.domain]
      : body.registrable_domain !== undefined
        ? ['body.registrable_domain', body.registrable_domain]
        : fromDomainId
          ? [domainIdPath, fromDomainId.registrableDomain]
          : fail(
              'body.domain',
              'is required: a domain, host or URL (or registrable_domain, domain_id, seed_id)',
            );
  const normalized = normalizeUrl(sourceText);
  if (!normalized.ok) return fail(sourcePath, normalized.reason);
  const host = classifyHost(normalized.url.hostname, overrides);
  if (!host.ok) return fail(sourcePath, host.reason);
  const registrable = host.registrableDomain;

  if (
    body.registrable_domain !== undefined &&
    body.registrable_domain.trim().toLowerCase().replace(/\.$/, '') !== registrable
  )
    errors.push({
      path: 'body.registrable_domain',
      message: `is ${body.registrable_domain}, but ${sourceText} belongs to ${registrable}`,
    });
  if (fromDomainId && fromDomainId.registrableDomain !== registrable)
    errors.push({
      path: domainIdPath,
      message: `names ${fromDomainId.registrableDomain}, not ${registrable}`,
    });
  if (fromDomainId && fromDomainId.country !== body.country)
    errors.push({
      path: domainIdPath,
      message: `is in country ${fromDomainId.country}, not ${body.country}`,
    });
  if (body.domain_id !== undefined && fromSeedId && fromDomainId) {
    const canonical = domainIdOf(
      fromDomainId.authority,
      fromDomainId.country,
      fromDomainId.registrableDomain,
    );
    if (fromSeedId.domainId !== canonical)
      errors.push({ path: 'body.seed_id', message: `does not start with the domain_id ${canonical}` });
  }
  if (fromSeedId && fromSeedId.contentType !== contentType)
    errors.push({
      path: 'body.seed_id',
      message: `ends in ::${fromSeedId.contentType}, but the content type is ${contentType}`,
    });
  if (errors.length > 0) throw new ValidationError(errors);

  // A domain id given keeps its authority: a contract batch may have been asked for any (`gov:de:bund.de`), and
  // a seed copied to another instance keeps its id.
  const authority = fromDomainId?.authority ?? host.authority;
  const domainId = domainIdOf(authority, body.country, registrable);
  // A URL given as the domain is the entry page; a bare domain enters at its homepage.
  const givenAsUrl = body.domain !== undefined && /[/:]/.test(body.domain.trim().replace(/\/+$/, ''));
  return {
    registrableDomain: registrable,
    authority,
    domainId,
    seedId: seedIdOf(domainId, contentType),
    contentType,
    impliedEntryUrl: givenAsUrl ? normalized.url.href : `https://${registrable}/`,
  };
}
