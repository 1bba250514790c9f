// The inspection's items without zod (issue 67: the driver's home lists them; maintenance.ts's schemas
// load with the inspection form), re-exported by maintenance.ts.

/**
 * The parts and accessories 49 CFR 396.11(a)(2) lists, in the rule's order; `trailer` marks the ones
 * a trailer is inspected on too. Every inspection reports each of them, plus the organization's own items.
 */
export const DVIR_ITEMS = [
  { code: 'SERVICE_BRAKES', label: 'Service brakes, including trailer brake connections', trailer: true },
  { code: 'PARKING_BRAKE', label: 'Parking brake', trailer: false },
  { code: 'STEERING', label: 'Steering mechanism', trailer: false },
  { code: 'LIGHTING', label: 'Lighting devices and reflectors', trailer: true },
  { code: 'TIRES', label: 'Tires', trailer: true },
  { code: 'HORN', label: 'Horn', trailer: false },
  { code: 'WIPERS', label: 'Windshield wipers', trailer: false },
  { code: 'MIRRORS', label: 'Rear vision mirrors', trailer: false },
  { code: 'COUPLING', label: 'Coupling devices', trailer: true },
  { code: 'WHEELS_RIMS', label: 'Wheels and rims', trailer: true },
  { code: 'EMERGENCY_EQUIPMENT', label: 'Emergency equipment', trailer: false },
] as const;
export type DvirItemCode = (typeof DVIR_ITEMS)[number]['code'];
