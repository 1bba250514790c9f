import { Tabs } from '@mantine/core';
import { IconCreditCard, IconGasStation } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router';

// The two faces of fuel (issue 68): the card transactions, and what the trucks' fuel level says.

const TABS = [
  { path: '/fuel-transactions', label: 'Card transactions', icon: IconCreditCard },
  { path: '/fuel-events', label: 'Fuel level', icon: IconGasStation },
] as const;

export function FuelTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <Tabs value={TABS.find((t) => pathname.startsWith(t.path))?.path ?? TABS[0].path} onChange={(v) => v && navigate(v)} mb="md" aria-label="Fuel">
      <Tabs.List>
        {TABS.map(({ path, label, icon: Icon }) => (
          <Tabs.Tab key={path} value={path} leftSection={<Icon size={16} />}>
            {label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
