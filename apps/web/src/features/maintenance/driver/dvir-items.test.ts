// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DVIR_ITEMS } from '@fleet/api-contract/maintenance';
import { EMPTY_ANSWER, allPass, answeredCount, formItems, itemsBody, localErrors, placeErrors } from './dvir-items.ts';

const truck = { id: 't1', unitNumber: '101' };
const trailer = { id: 'r1', unitNumber: 'T-7' };
const trailerCodes = DVIR_ITEMS.filter((i) => i.trailer).length;

describe('the inspection form’s list', () => {
  it('lists every 396.11 item on the vehicle, the trailer items on each trailer, and the organization’s own items', () => {
    const items = formItems(
      truck,
      [trailer],
      [
        { name: 'Fire extinguisher seal', trailer: false },
        { name: 'Reefer unit', trailer: true },
      ],
    );
    expect(items.filter((i) => i.unit.id === 't1').map((i) => i.item)).toEqual([...DVIR_ITEMS.map((i) => i.code), 'Fire extinguisher seal', 'Reefer unit']);
    expect(items.filter((i) => i.unit.id === 'r1').map((i) => i.item)).toEqual([...DVIR_ITEMS.filter((i) => i.trailer).map((i) => i.code), 'Reefer unit']);
    expect(new Set(items.map((i) => i.key)).size).toBe(items.length);
  });

  it('a new defect does not affect safe operation until the driver says it does', () => {
    const items = formItems(truck, [], []);
    const t = items[0]!;
    const body = itemsBody(items, allPass(items, { [t.key]: { ...EMPTY_ANSWER, result: 'defect', note: 'Scratched mirror housing' } }), 't1');
    expect(body.find((b) => !b.ok)).toMatchObject({ item: t.item, ok: false, safety: false });
  });

  it('"All pass" answers only what is left, and the count follows', () => {
    const items = formItems(truck, [trailer], []);
    const first = items[0]!;
    const answers = { [first.key]: { result: 'defect' as const, note: 'Soft pedal', imageIds: ['img'], safety: true } };
    expect(answeredCount(items, answers)).toBe(1);
    const all = allPass(items, answers);
    expect(answeredCount(items, all)).toBe(DVIR_ITEMS.length + trailerCodes);
    expect(all[first.key]!.result).toBe('defect');
    expect(all[items[1]!.key]!.result).toBe('pass');
  });

  it('asks for an answer on every line and a note on every defect', () => {
    const items = formItems(truck, [], []);
    const answers = allPass(items, { [items[2]!.key]: { result: 'defect', note: '  ', imageIds: [], safety: true } });
    expect(localErrors(items, answers)).toEqual({ [items[2]!.key]: 'Describe the defect' });
    expect(Object.keys(localErrors(items, {}))).toHaveLength(items.length);
  });

  it('sends the vehicle’s items without a unit and the trailer’s with it; a passed item carries no note or photos', () => {
    const items = formItems(truck, [trailer], []);
    const t = items.find((i) => i.unit.id === 'r1')!;
    const body = itemsBody(items, allPass(items, { [t.key]: { result: 'defect', note: ' Flat ', imageIds: ['a'], safety: false } }), 't1');
    expect(body[0]).toEqual({ item: 'SERVICE_BRAKES', assetId: null, ok: true, note: null, imageIds: [], safety: false });
    expect(body.find((b) => b.assetId === 'r1' && !b.ok)).toEqual({ item: t.item, assetId: 'r1', ok: false, note: 'Flat', imageIds: ['a'], safety: false });
  });

  it('places a 400’s messages on the line `items.N` names, others by field, the rest at the top', () => {
    const items = formItems(truck, [], []);
    expect(
      placeErrors(
        [
          { path: 'items.3.note', message: 'Defect note is required' },
          { path: 'odometer', message: 'Odometer must be 0 or more' },
          { path: 'items', message: 'Items missing' },
          { path: 'items.99.note', message: 'Off the list' },
        ],
        items,
        ['odometer'],
      ),
    ).toEqual({ [items[3]!.key]: 'Defect note is required', odometer: 'Odometer must be 0 or more', '': 'Items missing; Off the list' });
  });
});
