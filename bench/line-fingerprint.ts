/**
 * An order-free fingerprint of texts (rows as JSON, lines of CSV): their count and two sums of
 * 32-bit FNV-1a hashes, so the same texts in any order give the same fingerprint. A sorted list
 * of the texts themselves exceeded V8's longest string at 4.8 million rows (peak-hours, 5,000
 * venues).
 */
export class Fingerprint {
  private count = 0;
  private a = 0;
  private b = 0;

  add(text: string): void {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < text.length; i++) {
      h1 = Math.imul(h1 ^ text.charCodeAt(i), 0x01000193);
      h2 = Math.imul(h2 ^ text.charCodeAt(i), 0x811c9dc5);
    }
    this.count += 1;
    this.a = (this.a + (h1 >>> 0)) % 0x100000000;
    this.b = (this.b + (h2 >>> 0)) % 0x100000000;
  }

  toString(): string {
    return `${this.count}:${this.a}:${this.b}`;
  }
}
