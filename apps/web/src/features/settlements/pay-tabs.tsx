import { Tabs } from '@mantine/core';
import { IconReceipt2, IconUserDollar } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router';

// The two faces of driver pay (issue 70): the settlements, and each driver's rates and deductions.

const TABS = [
  { path: '/settlements', label: 'Settlements', icon: IconReceipt2 },
  { path: '/settlements/pay', label: 'Pay profiles', icon: IconUserDollar },
] as const;

export function PayTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const value = pathname.startsWith('/settlements/pay') ? '/settlements/pay' : '/settlements';
  return (
    <Tabs value={value} onChange={(v) => v && navigate(v)} mb="md" aria-label="Driver pay">
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
