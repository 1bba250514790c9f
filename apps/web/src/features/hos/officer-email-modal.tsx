import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { notify } from '../../lib/notifications-store.ts';
import { errorWords } from '../../i18n/error-words.ts';

export interface OfficerEmailModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** The address field's label. */
  label: string;
  pending: boolean;
  /** Sends to the address; resolves to the success notice's title and line. */
  send: (email: string) => Promise<{ title: string; category: string }>;
}

/**
 * Asks an officer's e-mail address and sends them the roadside file (the US ELD file, the Canadian
 * PDF): the address checked before anything is sent, the server's refusal shown under the field.
 */
export function OfficerEmailModal({ opened, onClose, title, label, pending, send }: OfficerEmailModalProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setError(t('validation.email', { label: t('fields.email') }));
      return;
    }
    try {
      notify({ type: 'success', timeout: 5000, ...(await send(email.trim())) });
      setError(null);
      onClose();
    } catch (err) {
      setError(errorWords(t, err));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size="sm">
      <Stack gap="sm">
        <TextInput
          label={label}
          type="email"
          inputMode="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={error}
          size="md"
          data-autofocus
        />
        <Group grow>
          <Button variant="default" size="md" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button size="md" loading={pending} onClick={() => void submit()}>
            {t('common.send')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
