import type { CurrentUser, Permission } from '@fleet/api-contract';
import { ORGANIZATION_PERMISSIONS } from '@fleet/api-contract';

const base: CurrentUser = {
  id: '00000000-0000-4000-8000-000000000001',
  role: 'USER',
  roleId: null,
  roleName: null,
  organization: { id: '00000000-0000-4000-8000-0000000000aa', name: 'Demo Freight' },
  permissions: [],
  firstName: 'Dana',
  lastName: 'Whitfield',
  username: 'dana@demo.test',
  email: 'dana@demo.test',
  profilePicture: null,
  position: null,
  phone: null,
  timeZone: 'America/Chicago',
  driverId: null,
};

export const adminUser = (): CurrentUser => ({ ...base, role: 'ADMIN', roleName: 'Administrator', permissions: [...ORGANIZATION_PERMISSIONS] });

/** The seeded demo dispatcher's codes (apps/api/src/seed/seed.ts). */
export const DISPATCHER_PERMISSIONS: Permission[] = [
  'ORG_DASH_READ',
  'USER_READ',
  'ORG_READ',
  'ASSET_LIST',
  'HR_READ',
  'DRIVER_LIST',
  'GAT_LIST',
  'GAT_READ',
  'GROUP_LIST',
  'GROUP_READ',
  'HOS_LIST',
  'HOS_READ',
  'VIO_LIST',
  'AVAILABILITY_LIST',
  'IFTA_LIST',
  'DVIR_LIST',
  'WORK_ORDER_LIST',
  'MAINTENANCE_LIST',
  'PLACE_LIST',
  'LOAD_LIST',
  'LOAD_UPDATE',
  'CUSTOMER_LIST',
  'CUSTOMER_UPDATE',
  'MESSAGE_LIST',
  'MESSAGE_SEND',
  'SAFETY_LIST',
];
export const dispatcherUser = (): CurrentUser => ({
  ...base,
  id: '00000000-0000-4000-8000-000000000002',
  roleName: 'Dispatcher',
  permissions: DISPATCHER_PERMISSIONS,
});

export const superAdminUser = (): CurrentUser => ({
  ...base,
  id: '00000000-0000-4000-8000-000000000003',
  role: 'SUPER_ADMIN',
  organization: null,
  permissions: ['SUPER_ADMIN'],
  firstName: 'Super',
  lastName: 'Admin',
});
