import { Button, Group } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type { Permission } from '@fleet/api-contract';
import { useCan } from '../../../lib/registry-api.ts';

const TABS: { path: string; label: string; permission: Permission }[] = [
  { path: '/maintenance/defects', label: 'Defects', permission: 'DVIR_LIST' },
  { path: '/maintenance/work-orders', label: 'Work orders', permission: 'WORK_ORDER_LIST' },
  { path: '/maintenance/inspections', label: 'Inspections', permission: 'DVIR_LIST' },
  { path: '/maintenance/due', label: 'Service due', permission: 'MAINTENANCE_LIST' },
  { path: '/maintenance/schedules', label: 'Schedules', permission: 'MAINTENANCE_LIST' },
  { path: '/maintenance/settings', label: 'Inspection items', permission: 'DVIR_LIST' },
];

/** The maintenance screens side by side, as the menu lists them (only those the user may open). */
export function MaintenanceTabs() {
  const { pathname } = useLocation();
  const allowed = {
    DVIR_LIST: useCan('DVIR_LIST'),
    WORK_ORDER_LIST: useCan('WORK_ORDER_LIST'),
    MAINTENANCE_LIST: useCan('MAINTENANCE_LIST'),
  } as Partial<Record<Permission, boolean>>;
  const tabs = TABS.filter((t) => allowed[t.permission]);
  return (
    <Group component="nav" aria-label="Maintenance screens" gap={4} mb="md" wrap="wrap">
      {tabs.map((t) => {
        const active = pathname.startsWith(t.path);
        return (
          <Button key={t.path} component={Link} to={t.path} size="compact-sm" variant={active ? 'filled' : 'subtle'} aria-current={active ? 'page' : undefined}>
            {t.label}
          </Button>
        );
      })}
    </Group>
  );
}
