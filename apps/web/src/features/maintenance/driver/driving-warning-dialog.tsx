import { useTranslation } from 'react-i18next';
import { Button, Modal, Stack, Text } from '@mantine/core';

// A chunk of its own, loaded the first time the warning shows (inspection-card.tsx, issue 67).

export interface DrivingWarningDialogProps {
  opened: boolean;
  onClose: () => void;
  unitNumber: string;
  /** The open safety defects, worded. */
  lines: Array<{ id: string; text: string }>;
}

/** The vehicle drives with an open safety defect: the driver acknowledges it. */
export default function DrivingWarningDialog({ opened, onClose, unitNumber, lines }: DrivingWarningDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('inspection.warnTitle', { unit: unitNumber })} centered size="sm">
      <Stack gap="sm">
        {lines.map((d) => (
          <Text key={d.id} fw={600}>
            {d.text}
          </Text>
        ))}
        <Text size="sm">{t('inspection.warnBody')}</Text>
        <Button color="red" size="md" onClick={onClose}>
          {t('inspection.understand')}
        </Button>
      </Stack>
    </Modal>
  );
}
