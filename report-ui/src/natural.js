// Natural order for names: int_2 before int_10 before int_100, case-insensitive first.
const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

export function naturalCompare(a, b) {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
