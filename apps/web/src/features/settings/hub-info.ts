import type { ComponentType } from 'react';
import {
  IconAddressBook,
  IconBuilding,
  IconBuildingWarehouse,
  IconBuildingSkyscraper,
  IconCpu,
  IconDatabaseCog,
  IconHistory,
  IconSettings,
  IconSteeringWheel,
  IconTruck,
  IconKey,
  IconTruckLoading,
  IconUserCircle,
  IconUsers,
  IconUsersGroup,
  IconWebhook,
} from '@tabler/icons-react';

type Icon = ComponentType<{ size?: number | string; stroke?: number }>;

/** What each hub card says about its sub-area (settings hubs, administration). */
export const HUB_INFO: Record<string, { description: string; icon: Icon }> = {
  '/my-account': { description: 'Your name, contact details, photo and password', icon: IconUserCircle },
  '/settings/organization-settings': { description: 'Company account, team, drivers, vehicles, devices and groups', icon: IconBuilding },
  '/settings/activity-log': { description: 'Who changed what and when, with the values before and after', icon: IconHistory },
  '/settings/data-retention': { description: 'How long records are kept, within the legal minimums', icon: IconDatabaseCog },
  '/settings/organization-settings/organization-account': { description: 'Legal name, DOT and MC numbers, logo, units and HoS defaults', icon: IconSettings },
  '/settings/organization-settings/user-and-roles': { description: 'Invite members and decide what each role may do', icon: IconUsers },
  '/settings/organization-settings/all-drivers': { description: 'Drivers, their licences and HoS rules', icon: IconSteeringWheel },
  '/settings/organization-settings/trailers': { description: 'Trailers and what they are attached to', icon: IconTruckLoading },
  '/settings/organization-settings/vehicles': { description: 'Trucks, their drivers and devices', icon: IconTruck },
  '/settings/organization-settings/devices': { description: 'GPS and ELD devices and their pairing', icon: IconCpu },
  '/settings/organization-settings/terminals': { description: 'Where drivers report: the address and time zone of their logs', icon: IconBuildingWarehouse },
  '/settings/organization-settings/api-tokens': { description: 'Tokens your TMS, accounting or payroll use to call the API', icon: IconKey },
  '/settings/organization-settings/webhooks': { description: 'Signed events sent to your other systems as they happen', icon: IconWebhook },
  '/settings/organization-settings/groups': { description: 'Group people and assets to filter lists and the map', icon: IconUsersGroup },
  '/administration/organizations': { description: 'Every carrier: create, edit, deactivate, take control', icon: IconBuildingSkyscraper },
  '/administration/device-models': { description: 'GPS and ELD hardware models devices are registered as', icon: IconAddressBook },
};
