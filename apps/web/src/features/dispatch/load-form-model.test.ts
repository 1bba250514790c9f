import { describe, expect, it } from 'vitest';
import { emptyStop, formValuesOf, inputOf, judge } from './load-form-model.ts';

const zone = 'America/Chicago';
const filled = () => {
  const v = formValuesOf(null, 'IMPERIAL', zone);
  v.customer = 'Acme Foods';
  v.weight = '42000';
  v.lineHaul = '2450';
  v.stops = [
    { ...emptyStop('PICKUP'), latitude: '41.85', longitude: '-87.65', windowStart: '2026-11-24T06:00', windowEnd: '2026-11-24T08:00' },
    { ...emptyStop('DELIVERY'), latitude: '32.78', longitude: '-96.8', windowStart: '2026-11-25T14:00', windowEnd: '2026-11-25T16:00' },
  ];
  return v;
};

describe('the load form', () => {
  it('sends windows typed on the viewer’s wall clock as instants and the weight in kg', () => {
    const r = judge(inputOf(filled(), 'IMPERIAL', zone, null));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    // 06:00 in Chicago in November is 12:00 UTC.
    expect(r.input.stops[0]!.windowStart).toBe('2026-11-24T12:00:00.000Z');
    expect(r.input.weightKg).toBeCloseTo(19050.88, 2);
    expect(r.input.rate).toEqual({ lineHaul: 2450, fuelSurcharge: 0, accessorials: [] });
    // A name typed without picking goes alone; a picked customer goes by its id (issue 70).
    expect(r.input).toMatchObject({ customer: 'Acme Foods', customerId: null });
    const picked = judge(inputOf({ ...filled(), customerId: '5b0c3d5e-8f1a-4c2b-9d3e-1f2a3b4c5d6e' }, 'IMPERIAL', zone, null));
    expect(picked.ok && picked.input.customerId).toBe('5b0c3d5e-8f1a-4c2b-9d3e-1f2a3b4c5d6e');
  });

  it('puts the contract’s messages on the fields that show them', () => {
    const v = filled();
    v.customer = '';
    v.stops[1] = { ...v.stops[1]!, windowEnd: '2026-11-25T13:00' };
    v.lineHaul = '';
    const r = judge(inputOf(v, 'IMPERIAL', zone, null));
    expect(r.ok || r.errors.map((e) => e.path).sort()).toEqual(['customer', 'lineHaul', 'stops.1.windowEnd']);
    // The order of the stops is judged once each stop is whole.
    const w = filled();
    w.stops[1] = { ...w.stops[1]!, kind: 'PICKUP' };
    const order = judge(inputOf(w, 'IMPERIAL', zone, null));
    expect(order.ok || order.errors).toEqual([{ path: 'stops.root', message: 'The last stop must be a delivery' }]);
  });
});
