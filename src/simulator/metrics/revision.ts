/**
 * Late data: the upstream keeps correcting its most recent days. With `recentDays` N, a day
 * from N days before today up to today is computed at the current revision epoch, so each
 * `revise()` changes it; older days are always at revision 0 and never change.
 */
export function revisionOfDay(day: number, todayDay: number, recentDays: number, epoch: number): number {
  return recentDays > 0 && day >= todayDay - recentDays ? epoch : 0;
}
