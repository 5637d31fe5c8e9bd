// A front page that offers e-mail among its site's services: a mail portal's front (WEB.DE "kostenlose
// E-Mail-Adresse, FreeMail & Nachrichten", GMX "kostenlose E-Mail, Cloud, Nachrichten & Freemail"). Such a front
// has a newsroom's layout — dozens of stories under a section menu, bylines — since news is one of the portal's
// services, so news-verdict.ts holds it in the maybe band for a person to look at. A newspaper names itself, not an
// inbox. Pure.
//
// The title and og:site_name count wherever the words stand in them; the meta description only where it lists e-mail
// among the site's services (Yahoo! JAPAN's "検索、オークション、ニュース、メール、コミュニティ…"), since a newsroom's
// description may well say "the news in your email". The words are those of an e-mail service itself, never of a
// newspaper's name ("Daily Mail", "El Correo", Korean 매일 "daily" are other words).

import { frontFieldEvidence } from './site-kind-signals.js';

const MAIL_WORD = '(e-?mail|freemail|webmail|courriel|メール|메일|邮箱|電子郵件)';
/** An e-mail service's own words, standing as words of their own. */
const MAIL_SERVICE_WORDS = new RegExp(String.raw`(?:^|[^\p{L}\p{N}])${MAIL_WORD}(?=$|[^\p{L}\p{N}])`, 'iu');
/** The words as one item of a list: a list separator (or the text's start) before, a separator after. */
const LISTED_MAIL_SERVICE = new RegExp(
  String.raw`(?:^|[,、，|・/;])\s*${MAIL_WORD}\s*(?=[,、，|・/;])`,
  'iu',
);

/** The mail word a pattern finds in a text (its first group), or null. */
const mailWordIn = (pattern: RegExp) => (text: string) => pattern.exec(text)?.[1] ?? null;

/** Where a front page's title or site name offers e-mail, or its description lists it, as evidence; else null. */
export function mailPortalFront(
  title: string | null,
  siteName: string | null,
  description: string | null = null,
): string | null {
  const found =
    frontFieldEvidence('title', title, mailWordIn(MAIL_SERVICE_WORDS)) ??
    frontFieldEvidence('site name', siteName, mailWordIn(MAIL_SERVICE_WORDS)) ??
    frontFieldEvidence('description', description, mailWordIn(LISTED_MAIL_SERVICE));
  return found === null ? null : `${found}: a mail portal, news one of its services`;
}
