/** Where a label would like to sit: the y (its centre, in pixels) of the point it names. */
export interface LabelWant {
  id: string;
  y: number;
}

/**
 * End-of-line labels in one column, moved apart just enough that none covers another: ordered by the y they
 * want, each pushed below the one above, the column then pushed up from the bottom edge, and stacked from the top
 * when they cannot all fit. Labels keep their order, so each stays beside its own line. Returned in input order.
 */
export function layoutLabels(
  wants: readonly LabelWant[],
  { top, bottom, height }: { top: number; bottom: number; height: number },
): LabelWant[] {
  const half = height / 2;
  const order = wants
    .map((w, i) => ({ ...w, i, y: Math.min(bottom - half, Math.max(top + half, w.y)) }))
    .sort((a, b) => a.y - b.y || a.i - b.i);
  for (let k = 1; k < order.length; k++) {
    const prev = order[k - 1]!;
    const cur = order[k]!;
    if (cur.y < prev.y + height) cur.y = prev.y + height;
  }
  const last = order.at(-1);
  if (last && last.y > bottom - half) {
    last.y = bottom - half;
    for (let k = order.length - 2; k >= 0; k--) {
      const next = order[k + 1]!;
      const cur = order[k]!;
      if (cur.y > next.y - height) cur.y = next.y - height;
    }
  }
  // Too many for the column: stack from the top and let the rest run past the bottom rather than overlap.
  if (order.length > 0 && order[0]!.y < top + half)
    order.forEach((o, k) => {
      o.y = top + half + k * height;
    });
  const out: LabelWant[] = new Array(wants.length);
  for (const o of order) out[o.i] = { id: o.id, y: o.y };
  return out;
}
