// Douglas-Peucker simplification for the data build scripts, in metres: a local equirectangular
// projection at the path's first point, exact enough at the tens-of-metres tolerances used here.

/**
 * The points of `path` ([lon, lat] pairs) to keep at `toleranceM`: both ends always, and for a closed
 * path (first point = last) the two points farthest out too, so a ring keeps at least four points.
 */
export function simplifyPath(path, toleranceM) {
  const n = path.length;
  if (n <= 2) return path;
  const k = 111_319.49 * Math.cos((path[0][1] * Math.PI) / 180);
  const xs = path.map((p) => p[0] * k);
  const ys = path.map((p) => p[1] * 110_574);
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const stack = [];
  if (path[0][0] === path[n - 1][0] && path[0][1] === path[n - 1][1]) {
    let far = 1;
    for (let i = 1; i < n - 1; i++) if (dist2(xs, ys, 0, i) > dist2(xs, ys, 0, far)) far = i;
    let other = far === 1 ? 2 : 1;
    for (let i = 1; i < n - 1; i++) if (i !== far && segDist2(xs, ys, 0, far, i) > segDist2(xs, ys, 0, far, other)) other = i;
    keep[far] = 1;
    if (other < n - 1) keep[other] = 1;
    const cuts = [0, far, other, n - 1].filter((v, i, a) => a.indexOf(v) === i && v < n).sort((a, b) => a - b);
    for (let i = 1; i < cuts.length; i++) stack.push(cuts[i - 1], cuts[i]);
  } else {
    stack.push(0, n - 1);
  }
  const tol2 = toleranceM * toleranceM;
  while (stack.length) {
    const last = stack.pop();
    const first = stack.pop();
    let worst = -1;
    let worstD = tol2;
    for (let i = first + 1; i < last; i++) {
      const d = segDist2(xs, ys, first, last, i);
      if (d > worstD) {
        worst = i;
        worstD = d;
      }
    }
    if (worst >= 0) {
      keep[worst] = 1;
      stack.push(first, worst, worst, last);
    }
  }
  return path.filter((_, i) => keep[i]);
}

function dist2(xs, ys, a, b) {
  return (xs[a] - xs[b]) ** 2 + (ys[a] - ys[b]) ** 2;
}

/** Squared distance from point p to the segment a-b. */
function segDist2(xs, ys, a, b, p) {
  const dx = xs[b] - xs[a];
  const dy = ys[b] - ys[a];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((xs[p] - xs[a]) * dx + (ys[p] - ys[a]) * dy) / len2));
  return (xs[a] + t * dx - xs[p]) ** 2 + (ys[a] + t * dy - ys[p]) ** 2;
}
