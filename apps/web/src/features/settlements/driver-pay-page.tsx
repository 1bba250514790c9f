import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { SettlementSummary } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatDate, useViewerZone } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { intlLocale } from '../../i18n/i18n.ts';
import { STATUS_COLOR } from './settlement-format.ts';
import { openStatement, useSettlements } from './settlements-api.ts';

// `/driver/pay` (issue 70): the signed-in driver's own settlements once approved, newest first, each
// opening its statement as a PDF (375 px first). The API answers a driver their own approved and
// paid settlements only, whatever is asked.

export default function DriverPayPage() {
  const { t } = useTranslation();
  const q = useSettlements({ size: 52 });
  const items = q.data?.content ?? [];
  return (
    <Stack gap={0} maw={720}>
      <PageHeader title={t('pay.title')} description={t('pay.description')} />
      <DataState
        isLoading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        isEmpty={items.length === 0}
        emptyTitle={t('pay.emptyTitle')}
        emptyDescription={t('pay.emptyBody')}
      >
        <Stack gap="sm" role="list" aria-label={t('pay.list')}>
          {items.map((s) => (
            <StatementCard key={s.id} s={s} />
          ))}
        </Stack>
      </DataState>
    </Stack>
  );
}

function StatementCard({ s }: { s: SettlementSummary }) {
  const { t, i18n } = useTranslation();
  const zone = useViewerZone();
  const orgId = useEffectiveOrganizationId() ?? '';
  const [opening, setOpening] = useState(false);
  const locale = intlLocale(i18n.language);
  const money = (v: number) => new Intl.NumberFormat(locale, { style: 'currency', currency: s.currency }).format(v);
  const day = (d: string) => new Date(`${d}T12:00:00Z`).toLocaleDateString(locale, { timeZone: 'UTC', month: 'short', day: 'numeric' });
  const open = async () => {
    setOpening(true);
    try {
      await openStatement(orgId, s);
    } catch {
      notify({ type: 'alert', title: t('pay.openFailed'), timeout: 6000 });
    } finally {
      setOpening(false);
    }
  };
  const status = s.status === 'PAID' || s.status === 'APPROVED' ? s.status : null;
  return (
    <Card withBorder radius="md" padding="md" role="listitem" data-testid="pay-statement">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={2}>
          <Text fw={600}>{t('pay.days', { from: day(s.from), to: day(s.to) })}</Text>
          <Text size="sm" c="dimmed">
            {s.number} · {t('pay.loads', { count: s.loadCount })}
          </Text>
          <Text size="sm" c="dimmed">
            {s.status === 'PAID' && s.paidAt
              ? t('pay.paidOn', { date: formatDate(s.paidAt, zone, i18n.language) })
              : s.approvedAt
                ? t('pay.approvedOn', { date: formatDate(s.approvedAt, zone, i18n.language) })
                : ''}
          </Text>
        </Stack>
        <Stack gap={4} align="flex-end">
          {status && (
            <Badge variant="light" radius="sm" color={STATUS_COLOR[status]}>
              {t(`pay.status.${status}`)}
            </Badge>
          )}
          <Text size="xs" c="dimmed">
            {t('pay.net')}
          </Text>
          <Text fw={700} fz="xl" lh={1.1}>
            {money(s.totals.net)}
          </Text>
        </Stack>
      </Group>
      <Text size="xs" c="dimmed" mt="xs">
        {[
          t('pay.gross', { amount: money(s.totals.gross) }),
          s.totals.reimbursements ? t('pay.reimbursements', { amount: money(s.totals.reimbursements) }) : null,
          s.totals.deductions ? t('pay.deductions', { amount: money(-s.totals.deductions) }) : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
      <Button mt="sm" variant="light" fullWidth leftSection={<IconFileTypePdf size={18} />} loading={opening} onClick={() => void open()}>
        {t('pay.openShort')} · {s.number}
      </Button>
    </Card>
  );
}
