// Fuel used from purchases (issue 68, decision 0280), pure: the fill-to-fill method of a fuel log.
// Each purchase fills the tank, so the fuel bought at a fill is what was burnt since the fill before:
// the fuel used between the first and the last fill of a span is what was bought after the first up
// to and including the last, and it is divided by the distance driven between those two fills. The
// first fill's own fuel was burnt before the span (its miles are not in it) and is left out.

/** Purchases this close to each other are one fill (both saddle tanks, a second receipt at the pump). */
export const ONE_FILL_MS = 60 * 60_000;

export interface Purchase {
  /** Epoch ms. */
  t: number;
  litres: number;
}

export interface Fill {
  /** The fill's first purchase (epoch ms). */
  t: number;
  litres: number;
}

/** Purchases (any order) as fills: those within ONE_FILL_MS of the one before are added to its fill. */
export function fillsOf(purchases: readonly Purchase[]): Fill[] {
  const fills: Fill[] = [];
  let lastT = -Infinity;
  for (const p of [...purchases].sort((a, b) => a.t - b.t)) {
    const open = fills[fills.length - 1];
    if (open && p.t - lastT <= ONE_FILL_MS) open.litres += p.litres;
    else fills.push({ t: p.t, litres: p.litres });
    lastT = p.t;
  }
  return fills;
}

/** The span between the first and the last fill and the fuel used over it; null with fewer than two fills or no fuel. */
export interface FillSpan {
  from: number;
  to: number;
  litres: number;
  fills: number;
}

export function fillSpan(fills: readonly Fill[]): FillSpan | null {
  if (fills.length < 2) return null;
  const litres = fills.slice(1).reduce((a, f) => a + f.litres, 0);
  if (!(litres > 0)) return null;
  return { from: fills[0]!.t, to: fills[fills.length - 1]!.t, litres, fills: fills.length };
}
