import type { TFunction } from 'i18next';
import { DVIR_ITEMS } from '@fleet/api-contract/dvir-items';
import type { DvirInput, InspectionItems } from '@fleet/api-contract';

// The inspection form's list (pure, unit-tested): every 396.11 item on the vehicle, the trailer
// items on each trailer, and the organization's own items; and the request body built from answers.

export interface Unit {
  id: string;
  unitNumber: string;
}

/** One line of the form: an item on one unit. `key` is unique in the form. */
export interface FormItem {
  key: string;
  /** The 396.11 code, or the organization's own item's name (what the API takes as `item`). */
  item: string;
  label: string;
  unit: Unit;
  trailer: boolean;
}

export type Result = 'pass' | 'defect';

/** The driver's answer on one line. A defect needs a note; photos are uploaded image ids. */
export interface Answer {
  result: Result | null;
  note: string;
  imageIds: string[];
  safety: boolean;
}

// Safety starts off: the driver says whether a defect affects safe operation (on by default, a
// cosmetic defect grounded the truck). The API's own default stays on for clients that omit it.
export const EMPTY_ANSWER: Answer = { result: null, note: '', imageIds: [], safety: false };

/** Up to 5 photos an item (the contract's limit). */
export const MAX_PHOTOS = 5;

/** The lines of an inspection of `vehicle` and `trailers`, in the rule's order, the organization's items last on each unit. */
export function formItems(vehicle: Unit, trailers: Unit[], own: InspectionItems['items']): FormItem[] {
  const line = (unit: Unit, item: string, label: string, trailer: boolean): FormItem => ({ key: `${unit.id}|${item}`, item, label, unit, trailer });
  return [
    ...DVIR_ITEMS.map((i) => line(vehicle, i.code, i.label, false)),
    ...own.map((i) => line(vehicle, i.name, i.name, false)),
    ...trailers.flatMap((t) => [
      ...DVIR_ITEMS.filter((i) => i.trailer).map((i) => line(t, i.code, i.label, true)),
      ...own.filter((i) => i.trailer).map((i) => line(t, i.name, i.name, true)),
    ]),
  ];
}

/**
 * An item's name on the driver's screen, in the driver's language (issue 44): a 396.11 item by its
 * code; the organization's own items as the organization named them. What is sent keeps the code.
 */
export function itemWords(t: TFunction, i: { item: string; label: string }): string {
  return DVIR_ITEMS.some((d) => d.code === i.item) ? t(`inspection.items.${i.item}`) : i.label;
}

/** How many lines have an answer. */
export const answeredCount = (items: FormItem[], answers: Record<string, Answer>) => items.filter((i) => answers[i.key]?.result).length;

/** Every unanswered line set to pass (answered ones keep their answer). */
export function allPass(items: FormItem[], answers: Record<string, Answer>): Record<string, Answer> {
  const next = { ...answers };
  for (const i of items) if (!next[i.key]?.result) next[i.key] = { ...EMPTY_ANSWER, ...next[i.key], result: 'pass' };
  return next;
}

/** The form's own checks before sending: an answer on every line, a note on every defect. Keyed by line; `words` in the driver's language. */
export function localErrors(
  items: FormItem[],
  answers: Record<string, Answer>,
  words = { choose: 'Choose Pass or Defect', describe: 'Describe the defect' },
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of items) {
    const a = answers[i.key];
    if (!a?.result) out[i.key] = words.choose;
    else if (a.result === 'defect' && !a.note.trim()) out[i.key] = words.describe;
  }
  return out;
}

/** The `items` of `POST dvirs`, in the form's order (a 400's `items.N` names line N). */
export function itemsBody(items: FormItem[], answers: Record<string, Answer>, vehicleId: string): DvirInput['items'] {
  return items.map((i) => {
    const a = answers[i.key] ?? EMPTY_ANSWER;
    const ok = a.result !== 'defect';
    return {
      item: i.item,
      assetId: i.unit.id === vehicleId ? null : i.unit.id,
      ok,
      note: ok ? null : a.note.trim(),
      imageIds: ok ? [] : a.imageIds,
      safety: ok ? false : a.safety,
    };
  });
}

/**
 * A 400's field messages placed on the form: `items.N.*` on line N, one of `fields` (`odometer`,
 * `signature.name`...) by its path; the rest (`items`: some missing) come back under `''`.
 */
export function placeErrors(pairs: Array<{ path: string; message: string }>, items: FormItem[], fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { path, message } of pairs) {
    const m = /^items\.(\d+)(?:\.|$)/.exec(path);
    const line = m ? items[Number(m[1])] : undefined;
    const key = line ? line.key : fields.includes(path) ? path : '';
    out[key] = out[key] ? `${out[key]}; ${message}` : message;
  }
  return out;
}
