const DAY_MS = 86_400_000;

/** Every calendar day from `first` to `last` inclusive (`YYYY-MM-DD`, UTC). */
export function calendarDays(first: string, last: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}
