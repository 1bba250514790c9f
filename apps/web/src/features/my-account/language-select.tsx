import { Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { browserLanguage, chooseLanguage, chosenLanguage, LANGUAGES, type Language } from '../../i18n/i18n.ts';

const BROWSER = 'browser';

/** The language of this device's screens (issue 44): the browser's until the user picks one. */
export function LanguageSelect() {
  const { t } = useTranslation();
  const browserName = LANGUAGES.find((l) => l.code === browserLanguage())?.name ?? 'English';
  const value = chosenLanguage() ?? BROWSER;
  return (
    <Stack gap={4}>
      <Select
        label={t('account.language')}
        data={[{ value: BROWSER, label: t('account.languageBrowser', { name: browserName }) }, ...LANGUAGES.map((l) => ({ value: l.code, label: l.name }))]}
        value={value}
        onChange={(v) => chooseLanguage(!v || v === BROWSER ? null : (v as Language))}
        allowDeselect={false}
        w={{ base: '100%', xs: 320 }}
      />
      <Text size="xs" c="dimmed">
        {t('account.languageHelp')}
      </Text>
    </Stack>
  );
}
