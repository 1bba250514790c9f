import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ComplianceItem, ComplianceKind, DriverQualification } from '@fleet/api-contract';
import { lazyPart } from '../../components/on-first-use.ts';
import { formatDate } from '../../lib/dates.ts';

// The driver's home (issue 71): the warning when their medical certificate or licence runs out within
// 7 days or has run out (the API's `warnings`), what became of a renewal they sent, and the way to send
// one (photographed pages and the new expiry date, approved by the office). Loaded only when there is
// something to say (driver-compliance-card.tsx), with its words (i18n/more/); the dialog when opened.

const RenewDialog = lazyPart(() => import('./renew-dialog.tsx').then((m) => ({ default: m.RenewDialog })));

type Renewable = 'MEDICAL_CERTIFICATE' | 'CDL';

/** The driver's newest renewal of a kind sent after the paper that counts now, if any. */
function latestRenewal(items: readonly ComplianceItem[], kind: ComplianceKind, current: ComplianceItem | null): ComplianceItem | null {
  const sent = items
    .filter((i) => i.kind === kind && i.approval !== 'APPROVED' && (!current || i.createdAt > current.createdAt))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return sent[0] ?? null;
}

export function DriverComplianceWarning({ orgId, driverId, qualification: d }: { orgId: string; driverId: string; qualification: DriverQualification }) {
  const { t, i18n } = useTranslation();
  const [renewing, setRenewing] = useState<Renewable | null>(null);
  const expired = d.warnings.some((w) => w.status === 'EXPIRED');
  const lines = d.warnings.map((w) => {
    const kind = w.kind as Renewable;
    const paper = t(`compliance.paper.${kind}`);
    const date = w.dueDate ? formatDate(w.dueDate, 'UTC', i18n.language) : '';
    const days = w.daysLeft ?? 0;
    const text =
      days < 0
        ? t('compliance.expired', { paper, date })
        : days === 0
          ? t('compliance.expiresToday', { paper })
          : t('compliance.expiresIn', { paper, date, count: days });
    const renewal = latestRenewal(d.items, kind, w.current);
    return { kind, text, renewal };
  });
  const toRenew = lines.find((l) => l.renewal?.approval !== 'PENDING')?.kind ?? null;
  return (
    <Alert
      color={expired ? 'red' : 'orange'}
      variant="light"
      icon={<IconAlertTriangle size={20} aria-hidden />}
      title={t('compliance.title')}
      data-testid="driver-compliance-warning"
    >
      <Stack gap={6}>
        {lines.map((l) => (
          <div key={l.kind}>
            <Text size="sm" fw={600}>
              {l.text}
            </Text>
            {l.renewal?.approval === 'PENDING' && <Text size="sm">{t('compliance.pending')}</Text>}
            {l.renewal?.approval === 'REJECTED' && <Text size="sm">{t('compliance.refused', { reason: l.renewal.rejectReason ?? '' })}</Text>}
          </div>
        ))}
        {toRenew && (
          <Button variant="default" onClick={() => setRenewing(toRenew)} style={{ alignSelf: 'flex-start' }}>
            {t('compliance.renew')}
          </Button>
        )}
      </Stack>
      {renewing && (
        <Suspense fallback={null}>
          <RenewDialog orgId={orgId} driverId={driverId} qualification={d} kind={renewing} onClose={() => setRenewing(null)} />
        </Suspense>
      )}
    </Alert>
  );
}
