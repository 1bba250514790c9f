import type { ServerNotification } from '@fleet/api-contract';
import type { TFunction } from 'i18next';
import { currentLanguage } from '../../i18n/i18n.ts';

type Worded = Pick<ServerNotification, 'kind' | 'title' | 'category' | 'expandedButton'>;

/** A message's notification: `Message from <sender>` and ` about <load number>` (messages.service). */
const MESSAGE_FROM = /^Message from (.+?)(?: about (\S+))?$/;

/**
 * What the server writes in English about a notification, in the driver's language (issue 44), by
 * its kind: a message's (the one a driver gets is dispatch's). The title's parts (sender, load) are
 * the one thing still read from its words, until the notification carries them apart.
 */
export function notificationWords<N extends Worded>(t: TFunction, n: N): N {
  if (currentLanguage() === 'en' || (n.kind !== 'MESSAGE_FROM_DISPATCH' && n.kind !== 'MESSAGE_FROM_DRIVER')) return n;
  const parts = MESSAGE_FROM.exec(n.title);
  const title = !parts ? n.title : parts[2] ? t('messages.notifyAbout', { from: parts[1], load: parts[2] }) : t('messages.notify', { from: parts[1] });
  const category = n.kind === 'MESSAGE_FROM_DISPATCH' ? t('messages.notifyCategory') : n.category;
  return { ...n, title, category, expandedButton: n.expandedButton && { ...n.expandedButton, label: t('messages.answer') } };
}
