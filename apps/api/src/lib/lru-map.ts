/** A small least-recently-used map: a read or a write marks the key as recent; the oldest go past `max`. */
export class LruMap<V> {
  private readonly map = new Map<string, V>();
  constructor(readonly max: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): void {
    this.map.delete(key);
    this.map.set(key, v);
    for (const [k] of this.map) {
      if (this.map.size <= this.max) break;
      this.map.delete(k);
    }
  }
  get size(): number {
    return this.map.size;
  }
}
