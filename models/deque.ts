// A FIFO with O(1) push, pop and shift: the rolling window evicts from the front on every append,
// and Array.prototype.shift is O(n).
export class Deque<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  at(index: number): T | undefined {
    // items holds exactly head + length entries, so an index past the end reads undefined anyway.
    return index < 0 ? undefined : this.items[this.head + index];
  }

  first(): T | undefined {
    return this.at(0);
  }

  last(): T | undefined {
    return this.length === 0 ? undefined : this.items[this.items.length - 1];
  }

  shift(): T | undefined {
    if (this.length === 0) return undefined;
    const item = this.items[this.head];
    this.head++;
    // When to compact is a cost trade-off, not behaviour: any rule that compacts eventually keeps the
    // storage bounded (properties/deque.test.ts checks the bound and the contents).
    // Stryker disable next-line EqualityOperator,LogicalOperator: equivalent, when to compact changes only the cost
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  pop(): T | undefined {
    return this.length === 0 ? undefined : this.items.pop();
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i] as T;
  }
}
