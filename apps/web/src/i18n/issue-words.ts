import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { currentLanguage, i18next } from './i18n.ts';

// The contract's validation messages ("Email is a required field") in the driver's language (issue
// 44), from the zod issue itself: its kind, its bound and the field it is about, never its English.

/**
 * For `useZodForm`'s `issueWords`: an issue in the current language, or undefined (English, or a
 * field with no name in the catalogue: the contract's words stay). `labels` names a field whose
 * label is not `fields.<its name>` (the new password form's `password` is `newPassword`).
 */
export function issueWords(t: TFunction, labels: Record<string, string> = {}) {
  return (issue: z.core.$ZodIssue): string | undefined => {
    if (currentLanguage() === 'en') return undefined;
    const name = String(issue.path.at(-1) ?? '');
    // The refinement every password form has: the confirmation differs.
    if (issue.code === 'custom' && name === 'confirmPassword') return t('validation.passwordsMatch');
    const key = `fields.${labels[name] ?? name}`;
    if (!i18next.exists(key)) return undefined;
    const label = t(key);
    switch (issue.code) {
      case 'invalid_type':
        return t('validation.required', { label });
      case 'too_small':
        return Number(issue.minimum) <= 1 ? t('validation.required', { label }) : t('validation.min', { label, min: String(issue.minimum) });
      case 'too_big':
        return t('validation.max', { label, max: String(issue.maximum) });
      case 'invalid_format':
        return issue.format === 'email' ? t('validation.email', { label }) : t('validation.invalid', { label });
      default:
        return t('validation.invalid', { label });
    }
  };
}
