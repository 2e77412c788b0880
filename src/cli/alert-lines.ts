import type { DeliveryRecord } from '../notify/index.js';

/** The last alerts for `status`: a failed delivery is said first, in words an operator greps for. */
export function alertLines(deliveries: readonly DeliveryRecord[]): string {
  if (deliveries.length === 0) return '';
  const [last] = deliveries;
  const head = last!.delivered ? 'Last alerts (newest first)' : 'Last alerts: last alert failed to deliver';
  const lines = deliveries.map((d) => {
    const outcome = d.delivered ? 'delivered' : `NOT delivered after ${d.attempts} attempts (${d.error ?? 'no answer'})`;
    return `  ${d.at}  ${d.event} to ${d.hook}${d.runId ? ` (run ${d.runId})` : ''}: ${outcome}`;
  });
  return `\n${head}\n\n${lines.join('\n')}\n`;
}
