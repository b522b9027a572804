// Bundles only (infra/lib/bundling.ts): the LRU cache the SDK's endpoint cache (DynamoDB endpoint discovery)
// takes from mnemonist, which brings its iterators and typed-array helpers along. What EndpointCache calls of
// it, on a Map: a Map iterates in insertion order, so re-inserting on use keeps the least recent first.
export default class LRUCache {
  constructor(capacity) {
    this.capacity = capacity;
    this.items = new Map();
  }

  get size() {
    return this.items.size;
  }

  has(key) {
    return this.items.has(key);
  }

  /** The value without marking it used. */
  peek(key) {
    return this.items.get(key);
  }

  get(key) {
    if (!this.items.has(key)) return undefined;
    const value = this.items.get(key);
    this.items.delete(key);
    this.items.set(key, value);
    return value;
  }

  set(key, value) {
    this.items.delete(key);
    this.items.set(key, value);
    if (this.items.size > this.capacity) this.items.delete(this.items.keys().next().value);
    return this;
  }

  clear() {
    this.items.clear();
  }
}
