import { Group, Paper, Text, UnstyledButton } from '@mantine/core';
import { IconCertificate, IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useCan } from '../../lib/registry-api.ts';
import { useComplianceSummary } from './compliance-api.ts';
import classes from './compliance.module.css';

const count = (n: number, one: string, many = one) => `${n} ${n === 1 ? one : many}`;

/**
 * The dashboard's tile (issue 71): "Compliance: n expiring, n expired", with what is missing and the
 * drivers' renewals waiting, opening the compliance calendar. Shown to users who may see compliance.
 */
export function DashboardComplianceTile() {
  const allowed = useCan('COMPLIANCE_LIST');
  const q = useComplianceSummary(allowed);
  if (!allowed || !q.data) return null;
  const s = q.data;
  const more = [s.missing > 0 && `${s.missing} missing`, s.pendingApproval > 0 && count(s.pendingApproval, 'renewal to approve', 'renewals to approve')].filter(
    Boolean,
  );
  return (
    <UnstyledButton component={Link} to="/compliance" className={classes.tileLink} data-testid="dashboard-compliance">
      <Paper withBorder p="sm" radius="md" className={classes.tile}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <IconCertificate size={22} aria-hidden className={s.expired > 0 ? classes.bad : s.expiring > 0 ? classes.warn : undefined} />
            <div>
              <Text fw={600} size="sm">
                Compliance: <span data-testid="compliance-expiring">{s.expiring}</span> expiring,{' '}
                <span data-testid="compliance-expired" className={s.expired > 0 ? classes.bad : undefined}>
                  {s.expired}
                </span>{' '}
                expired
              </Text>
              {more.length > 0 && (
                <Text size="xs" c="dimmed">
                  {more.join(' · ')}
                </Text>
              )}
            </div>
          </Group>
          <IconChevronRight size={18} aria-hidden />
        </Group>
      </Paper>
    </UnstyledButton>
  );
}
