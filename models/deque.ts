// A FIFO with O(1) push, pop, shift and indexed reads: the rolling window evicts from the front on
// every append, and Array.prototype.shift is O(n).
//
// It is a ring buffer over a power-of-two array that only grows. Every run of the window has one
// (two, with its pending calls), and with many interleaved runs a run is born and let go every few
// calls: an array that shrank when emptied (as `length = 0` makes V8 do) would be reallocated on
// the next push. Emptied slots are overwritten with undefined so that nothing left is kept alive.
export class Deque<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(item: T): void {
    if (this.count === this.items.length) this.grow();
    this.items[(this.head + this.count) & (this.items.length - 1)] = item;
    this.count++;
  }

  at(index: number): T | undefined {
    if (index < 0 || index >= this.count) return undefined;
    return this.items[(this.head + index) & (this.items.length - 1)];
  }

  first(): T | undefined {
    return this.at(0);
  }

  last(): T | undefined {
    return this.at(this.count - 1);
  }

  shift(): T | undefined {
    if (this.count === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & (this.items.length - 1);
    this.count--;
    return item;
  }

  pop(): T | undefined {
    if (this.count === 0) return undefined;
    const slot = (this.head + this.count - 1) & (this.items.length - 1);
    const item = this.items[slot];
    this.items[slot] = undefined;
    this.count--;
    return item;
  }

  /** Empties the queue and keeps its storage. */
  clear(): void {
    while (this.count > 0) this.pop();
    this.head = 0;
  }

  /** Slots held: what decides whether a run index is kept as a spare, and what the storage test bounds. */
  capacity(): number {
    return this.items.length;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = 0; i < this.count; i++) yield this.items[(this.head + i) & (this.items.length - 1)] as T;
  }

  /** Twice the slots (four to start), the items moved to the front in order. */
  private grow(): void {
    const old = this.items;
    const capacity = old.length === 0 ? 4 : old.length * 2;
    // Filled by push, so V8 keeps the array packed (new Array(n) would make it holey).
    const items: (T | undefined)[] = [];
    for (let i = 0; i < this.count; i++) items.push(old[(this.head + i) & (old.length - 1)]);
    while (items.length < capacity) items.push(undefined);
    this.items = items;
    this.head = 0;
  }
}
