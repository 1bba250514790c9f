import type { ServerNotification } from '@fleet/api-contract';
import type { TFunction } from 'i18next';
import { currentLanguage, intlLocale } from '../../i18n/i18n.ts';

type Worded = Pick<ServerNotification, 'kind' | 'title' | 'category' | 'expandedButton'>;

/** A message's notification: `Message from <sender>` and ` about <load number>` (messages.service). */
const MESSAGE_FROM = /^Message from (.+?)(?: about (\S+))?$/;

/** A driver's own paper (compliance-notices.ts, issue 71): `Your <paper> expires in <n> days | today | tomorrow`, `… expired on <Mon D, YYYY>`. */
const OWN_PAPER = /^Your (CDL|medical certificate) (?:expires (?:(today)|(tomorrow)|in (\d+) days?)|expired on (.+))$/;
const PAPER_KEYS: Record<string, string> = { CDL: 'papers.CDL', 'medical certificate': 'papers.MEDICAL_CERTIFICATE' };

/** The driver's own paper notice in their language; null for any other title. */
function ownPaperWords<N extends Worded>(t: TFunction, n: N): N | null {
  const parts = OWN_PAPER.exec(n.title);
  // The words load with the other screens' (i18n/more): until then, the server's English.
  if (!parts || !t('papers.open', { defaultValue: '' })) return null;
  const paper = t(PAPER_KEYS[parts[1]!]!);
  const [, , today, tomorrow, days, on] = parts;
  const date = on ? new Date(`${on} 12:00 UTC`) : null;
  const title = on
    ? t('papers.expiredOn', {
        paper,
        date: date && !Number.isNaN(date.getTime()) ? new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(date) : on,
      })
    : today
      ? t('papers.expiresToday', { paper })
      : tomorrow
        ? t('papers.expiresTomorrow', { paper })
        : t('papers.expiresIn', { paper, count: Number(days) });
  const category = t(n.kind === 'COMPLIANCE_EXPIRED' ? 'papers.expiredCategory' : 'papers.expiringCategory');
  return { ...n, title, category, expandedButton: n.expandedButton && { ...n.expandedButton, label: t('papers.open') } };
}

/**
 * What the server writes in English about a notification, in the driver's language (issue 44), by
 * its kind: a message's (the one a driver gets is dispatch's), and a driver's own paper running out
 * (issue 71). The title's parts (sender, load; paper, days) are the one thing still read from its
 * words, until the notification carries them apart.
 */
export function notificationWords<N extends Worded>(t: TFunction, n: N): N {
  if (currentLanguage() === 'en') return n;
  if (n.kind === 'COMPLIANCE_EXPIRING' || n.kind === 'COMPLIANCE_EXPIRED') return ownPaperWords(t, n) ?? n;
  if (n.kind !== 'MESSAGE_FROM_DISPATCH' && n.kind !== 'MESSAGE_FROM_DRIVER') return n;
  const parts = MESSAGE_FROM.exec(n.title);
  const title = !parts ? n.title : parts[2] ? t('messages.notifyAbout', { from: parts[1], load: parts[2] }) : t('messages.notify', { from: parts[1] });
  const category = n.kind === 'MESSAGE_FROM_DISPATCH' ? t('messages.notifyCategory') : n.category;
  return { ...n, title, category, expandedButton: n.expandedButton && { ...n.expandedButton, label: t('messages.answer') } };
}
