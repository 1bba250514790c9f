import TinyQueue from 'tinyqueue';
import type { LatLon } from './distance.ts';
import { lineLengthM, shortLengthM } from './geodesic.ts';
import { HIGHWAYS_DATA, HIGHWAYS_SOURCE } from './highways-data.ts';

// Routes over the bundled Natural Earth road network (scripts/build-highways.mjs, docs/decisions/0103)
// for the demo fleet: the polyline a truck drives between two cities, shortest by length. Node only.

export { HIGHWAYS_SOURCE };

interface Network {
  /** Node coordinates (lon, lat interleaved). */
  nodes: Float64Array;
  /** Per node: [neighbour node, piece, forward?] triples. */
  adjacency: number[][];
  /** Per piece: its vertices as [lon, lat] and its length in metres. */
  pieces: Array<{ points: Array<[number, number]>; metres: number }>;
}

let network: Network | null = null;

/** Parses the bundled pieces into a graph whose nodes are the pieces' ends (junctions). */
export function highwayNetwork(): Network {
  if (network) return network;
  const ids = new Map<string, number>();
  const coords: number[] = [];
  const adjacency: number[][] = [];
  const pieces: Network['pieces'] = [];
  const nodeOf = (x: number, y: number): number => {
    const k = `${x},${y}`;
    let id = ids.get(k);
    if (id === undefined) {
      id = ids.size;
      ids.set(k, id);
      coords.push(x / 1e4, y / 1e4);
      adjacency.push([]);
    }
    return id;
  };
  for (const text of HIGHWAYS_DATA.split(';')) {
    const v = text.split(',').map(Number);
    const points: Array<[number, number]> = [];
    let x = 0;
    let y = 0;
    for (let i = 0; i + 1 < v.length; i += 2) {
      x += v[i]!;
      y += v[i + 1]!;
      points.push([x, y]);
    }
    const first = points[0]!;
    const last = points[points.length - 1]!;
    const a = nodeOf(first[0], first[1]);
    const b = nodeOf(last[0], last[1]);
    const lonLat = points.map(([px, py]): [number, number] => [px / 1e4, py / 1e4]);
    let metres = 0;
    for (let i = 1; i < lonLat.length; i++) metres += lineLengthM(lonLat[i - 1]![1], lonLat[i - 1]![0], lonLat[i]![1], lonLat[i]![0]);
    const piece = pieces.push({ points: lonLat, metres }) - 1;
    if (a === b) continue;
    adjacency[a]!.push(b, piece, 1);
    adjacency[b]!.push(a, piece, 0);
  }
  network = { nodes: Float64Array.from(coords), adjacency, pieces };
  return network;
}

/**
 * The junction nearest to a point, plainly: every junction measured exactly. The reference that
 * {@link nearestNode} is tested against.
 */
export function nearestNodePlain(net: Network, p: LatLon): number {
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < net.adjacency.length; i++) {
    if (net.adjacency[i]!.length === 0) continue;
    const d = lineLengthM(p.lat, p.lon, net.nodes[2 * i + 1]!, net.nodes[2 * i]!);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/**
 * The flat measure's error against the exact one grows with the square of the length (0.6 % at
 * 500 km, a few % across the continent): a junction that is exactly nearest is flat-measured within
 * this factor of the flat-nearest one.
 */
const FLAT_SLACK = 1.25;

/**
 * The junction nearest to a point: the same answer as {@link nearestNodePlain} at a fraction of its
 * cost. The exact length of a far line is measured in 20 km parts (a junction 2,000 km away: 100 of
 * them), so every junction is first measured flat, once, and only those within the flat measure's
 * slack of the flat-nearest are measured exactly, in the same order, so ties resolve as the plain
 * search resolves them. A route asks it twice: this was most of a route's cost (35 -> 9 ms a route).
 */
export function nearestNode(net: Network, p: LatLon): number {
  const n = net.adjacency.length;
  const flat = new Float64Array(n).fill(Infinity);
  let bestFlat = Infinity;
  for (let i = 0; i < n; i++) {
    if (net.adjacency[i]!.length === 0) continue;
    const d = shortLengthM(p.lat, p.lon, net.nodes[2 * i + 1]!, net.nodes[2 * i]!);
    flat[i] = d;
    if (d < bestFlat) bestFlat = d;
  }
  const bound = bestFlat * FLAT_SLACK + 1;
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < n; i++) {
    if (flat[i]! > bound) continue;
    const d = lineLengthM(p.lat, p.lon, net.nodes[2 * i + 1]!, net.nodes[2 * i]!);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/**
 * The road polyline from `from` to `to`: from the point to the nearest junction of the network, the
 * shortest way (by length, Dijkstra) over the bundled roads, and on to `to`. Falls back to the straight
 * segment when the two junctions are not connected. Pure (the network is parsed once and kept).
 */
export function highwayRoute(from: LatLon, to: LatLon): LatLon[] {
  const net = highwayNetwork();
  const start = nearestNode(net, from);
  const goal = nearestNode(net, to);
  const dist = new Float64Array(net.adjacency.length).fill(Infinity);
  const via = new Int32Array(net.adjacency.length).fill(-1);
  const viaForward = new Uint8Array(net.adjacency.length);
  const prev = new Int32Array(net.adjacency.length).fill(-1);
  dist[start] = 0;
  const queue = new TinyQueue<[number, number]>([[0, start]], (a, b) => a[0] - b[0]);
  while (queue.length) {
    const [d, node] = queue.pop()!;
    if (node === goal) break;
    if (d > dist[node]!) continue;
    const adj = net.adjacency[node]!;
    for (let k = 0; k < adj.length; k += 3) {
      const next = adj[k]!;
      const piece = adj[k + 1]!;
      const nd = d + net.pieces[piece]!.metres;
      if (nd < dist[next]!) {
        dist[next] = nd;
        via[next] = piece;
        viaForward[next] = adj[k + 2]!;
        prev[next] = node;
        queue.push([nd, next]);
      }
    }
  }
  if (start !== goal && via[goal] === -1) return [from, to];
  const legs: Array<Array<[number, number]>> = [];
  for (let node = goal; node !== start;) {
    const piece = net.pieces[via[node]!]!;
    const points = viaForward[node] ? piece.points : [...piece.points].reverse();
    legs.push(points);
    node = prev[node]!;
  }
  const route: LatLon[] = [from];
  for (let i = legs.length - 1; i >= 0; i--) {
    for (const [lon, lat] of legs[i]!) {
      const prev = route[route.length - 1]!;
      if (prev.lat !== lat || prev.lon !== lon) route.push({ lat, lon });
    }
  }
  const last = route[route.length - 1]!;
  if (last.lat !== to.lat || last.lon !== to.lon) route.push(to);
  return route;
}
