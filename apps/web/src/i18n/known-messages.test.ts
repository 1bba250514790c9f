// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { i18next, loadLanguage } from './i18n.ts';
import { translateMessage } from './known-messages.ts';

// The English the server and the contract write, in the driver's language (issue 44).

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('translateMessage', () => {
  it('leaves English as it came', async () => {
    await i18next.changeLanguage('en');
    expect(translateMessage(i18next.t, 'Message from Dana Ruiz about L-1042')).toBe('Message from Dana Ruiz about L-1042');
  });

  it("words a dispatcher's message notification and the server's refusals in Spanish, and leaves an unknown message as it came", async () => {
    await loadLanguage('es');
    await i18next.changeLanguage('es');
    expect(translateMessage(i18next.t, 'Message from Dana Ruiz about L-1042')).toBe('Mensaje de Dana Ruiz sobre L-1042');
    expect(translateMessage(i18next.t, 'Message from Dana Ruiz')).toBe('Mensaje de Dana Ruiz');
    expect(translateMessage(i18next.t, 'Message from dispatch')).toBe('Mensaje del despacho');
    expect(translateMessage(i18next.t, 'Answer')).toBe('Responder');
    expect(translateMessage(i18next.t, 'Recorded at cannot be in the future: check the phone\u2019s date and time')).not.toMatch(/Recorded at/);
    expect(translateMessage(i18next.t, "Recorded at cannot be more than 30 days ago: check the phone's date and time")).toBe('La hora del registro no puede ser de hace más de 30 días: revise la fecha y la hora del teléfono');
    expect(translateMessage(i18next.t, 'Something the catalogue does not know')).toBe('Something the catalogue does not know');
  });
});
