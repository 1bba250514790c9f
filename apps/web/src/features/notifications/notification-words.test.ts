// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { i18next, loadLanguage, loadMoreWords } from '../../i18n/i18n.ts';
import { notificationWords } from './notification-words.ts';

// The driver's own papers running out (issue 71, decision 0302) in the bell in their language: the
// server writes English; the title's paper, days and date are read from it.

afterEach(async () => {
  await i18next.changeLanguage('en');
});

const notice = (kind: 'COMPLIANCE_EXPIRING' | 'COMPLIANCE_EXPIRED', title: string) => ({
  kind,
  title,
  category: kind === 'COMPLIANCE_EXPIRED' ? 'Paper expired' : 'Paper expiring',
  expandedButton: { label: 'Open', href: '/driver' },
});

describe('a driver’s own paper notice', () => {
  it('is worded in Spanish and French, and left as it came in English or for the office’s titles', async () => {
    const soon = notice('COMPLIANCE_EXPIRING', 'Your medical certificate expires in 7 days');
    expect(notificationWords(i18next.t, soon)).toEqual(soon);
    await loadLanguage('es');
    await i18next.changeLanguage('es');
    // Before the other screens' words have loaded: the server's English.
    expect(notificationWords(i18next.t, soon)).toEqual(soon);
    await loadMoreWords();
    expect(notificationWords(i18next.t, soon)).toMatchObject({
      title: 'Su certificado médico vence en 7 días',
      category: 'Documento por vencer',
      expandedButton: { label: 'Abrir', href: '/driver' },
    });
    const expired = notificationWords(i18next.t, notice('COMPLIANCE_EXPIRED', 'Your CDL expired on Nov 20, 2026'));
    expect(expired.title).toMatch(/^Su licencia CDL venció el 20 nov\.? 2026$/);
    expect(expired.category).toBe('Documento vencido');
    const office = notice('COMPLIANCE_EXPIRING', 'Dana Driver’s medical certificate expires in 30 days');
    expect(notificationWords(i18next.t, office)).toEqual(office);
    await loadLanguage('fr');
    await i18next.changeLanguage('fr');
    expect(notificationWords(i18next.t, notice('COMPLIANCE_EXPIRING', 'Your CDL expires tomorrow')).title).toBe('Votre permis CDL expire demain');
  });
});
