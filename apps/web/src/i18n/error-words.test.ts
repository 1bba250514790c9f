// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loginSchema } from '@fleet/api-contract/auth';
import { ApiError, NetworkError } from '../lib/api-client.ts';
import { errorBodyWords, errorWords, fieldWords } from './error-words.ts';
import { i18next, loadLanguage, loadMoreWords } from './i18n.ts';
import { issueWords } from './issue-words.ts';

// Decision 0257: the API's errors and the contract's validation messages in the driver's language,
// by the error's code and the issue's kind, never by their English words.

afterEach(async () => {
  await i18next.changeLanguage('en');
});

const body = (code: string, message: string, params?: Record<string, string | number>) => ({
  code,
  message,
  technicalMessage: `recordedAt: ${message}`,
  status: 400,
  timestamp: '2026-06-01T12:00:00.000Z',
  params,
});

describe('errorWords', () => {
  it('leaves English as the server wrote it', () => {
    expect(errorBodyWords(i18next.t, body('sync.recorded_too_old', 'Recorded at cannot be more than 30 days ago'))).toBe(
      'Recorded at cannot be more than 30 days ago',
    );
  });

  it('words a known code in Spanish with its params, whatever the English says, and shows an unknown code as it came', async () => {
    await loadLanguage('es');
    await i18next.changeLanguage('es');
    expect(errorBodyWords(i18next.t, body('sync.recorded_too_old', 'Any English at all', { days: 30 }))).toBe(
      'La hora del registro no puede ser de hace más de 30 días: revise la fecha y la hora del teléfono',
    );
    expect(errorWords(i18next.t, new ApiError(400, body('hos.yard_moves_not_allowed', 'Not allowed')))).not.toBe('Not allowed');
    expect(errorBodyWords(i18next.t, body('hos.something_new', 'A newer server says this'))).toBe('A newer server says this');
    expect(errorBodyWords(i18next.t, { message: 'An older server says this' })).toBe('An older server says this');
    expect(errorWords(i18next.t, new NetworkError('Failed to fetch'))).toBe(i18next.t('server.network'));
    expect(errorWords(i18next.t, new Error('boom'))).toBe(i18next.t('server.unknown'));
  });

  it('tells the driver a proof of delivery is missing, in their language, naming the stop (issue 70)', async () => {
    const refusal = body('loads.pod_required', 'Stop 2 needs a proof of delivery before it is completed (Acme requires one)', { stop: 2 });
    for (const [lng, words] of [
      ['es', 'La parada 2 necesita un comprobante de entrega antes de completarse: fotografíelo primero o llame a la oficina'],
      ['fr', 'L’arrêt 2 exige une preuve de livraison avant d’être terminé : photographiez-la d’abord, ou appelez le bureau'],
    ] as const) {
      await loadLanguage(lng);
      await i18next.changeLanguage(lng);
      expect(errorWords(i18next.t, new ApiError(409, refusal))).toBe(words);
    }
  });

  it('names the driver or unit and the expired paper of a dispatch refusal, in the office’s language (issue 71)', async () => {
    await loadMoreWords();
    await loadLanguage('es');
    await i18next.changeLanguage('es');
    const driver = body('loads.driver_not_qualified', 'Dana Driver’s medical certificate expired on Nov 20, 2026: …', {
      driver: 'Dana Driver',
      kind: 'MEDICAL_CERTIFICATE',
      date: '2026-11-20',
    });
    expect(errorWords(i18next.t, new ApiError(409, driver))).toBe('No se puede asignar a Dana Driver: su certificado médico venció el 2026-11-20');
    const unit = body('loads.vehicle_not_compliant', 'Vehicle 101 failed its annual inspection: …', {
      unit: '101',
      kind: 'ANNUAL_INSPECTION',
      date: '',
      failed: 1,
    });
    expect(errorWords(i18next.t, new ApiError(409, unit))).toBe('No se puede asignar la unidad 101: no aprobó su inspección anual');
  });

  it("words a field's message by the code of an error about that one field only", async () => {
    await loadLanguage('fr');
    await i18next.changeLanguage('fr');
    const one = body('hos.co_driver_self', 'The co-driver must be another driver');
    expect(fieldWords(i18next.t, one, one.message)).toBe(i18next.t('server.coDriverSelf'));
    const several = { ...body('validation.invalid_body', 'Remarks must be at most 60 characters; Odometer is not valid.') };
    expect(fieldWords(i18next.t, several, 'Remarks must be at most 60 characters')).toBe('Remarks must be at most 60 characters');
  });
});

describe('issueWords', () => {
  const words = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error!.issues.map(issueWords(i18next.t));

  it("words the contract's validation issues by their kind, bound and field", async () => {
    await loadLanguage('es');
    await i18next.changeLanguage('es');
    expect(words(loginSchema, { email: '', password: '' })).toEqual([
      i18next.t('validation.required', { label: i18next.t('fields.email') }),
      i18next.t('validation.required', { label: i18next.t('fields.password') }),
    ]);
    expect(words(loginSchema, { email: 'nope', password: 'x' })[0]).toBe(i18next.t('validation.email', { label: i18next.t('fields.email') }));
    expect(words(z.object({ newPassword: z.string().min(8, 'New password must be at least 8 characters') }), { newPassword: 'abc' })).toEqual([
      i18next.t('validation.min', { label: i18next.t('fields.newPassword'), min: '8' }),
    ]);
    // A field the catalogue does not name keeps the contract's words.
    expect(words(z.object({ vin: z.string().min(1, 'VIN is a required field') }), { vin: '' })).toEqual([undefined]);
  });

  it('keeps English as the contract wrote it', () => {
    expect(words(loginSchema, { email: '', password: '' })).toEqual([undefined, undefined]);
  });
});
