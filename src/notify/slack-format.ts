import type { NotificationBody } from './notification-body.js';

const MAX_LINES = 10;

/**
 * A Slack incoming-webhook body: `text` (the notification's fallback, shown in alerts) and
 * blocks with the details. No field of it is a secret: the JSON body it is made from is scrubbed.
 */
export function slackBody(notification: NotificationBody): { text: string; blocks: unknown[] } {
  const lines = detailLines(notification);
  const text = `[venue-etl] ${notification.title}`;
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${mrkdwn(text)}*` } },
      ...(lines.length > 0 ? [{ type: 'section', text: { type: 'mrkdwn', text: lines.map(mrkdwn).join('\n') } }] : []),
      { type: 'context', elements: [{ type: 'mrkdwn', text: `Next step: ${mrkdwn(notification.nextStep)}` }] },
    ],
  };
}

function detailLines(n: NotificationBody): string[] {
  const lines: string[] = [];
  if (n.error) lines.push(`${n.error.code}: ${n.error.message}`);
  for (const f of n.failures ?? []) lines.push(`${f.stream} ${f.scopeId}: ${f.code}`);
  if ((n.failuresTotal ?? 0) > (n.failures?.length ?? 0)) lines.push(`… ${n.failuresTotal! - n.failures!.length} more failed slices`);
  for (const s of n.streams ?? []) lines.push(`${s.stream}: newest day ${s.newestDay}, ${s.daysBehind} days behind (target ${s.maxAgeDays})`);
  for (const d of n.drift ?? []) lines.push(`${d.stream}.${d.attribute}: ${d.change === 'added' ? 'new attribute' : 'no longer sent'}`);
  for (const s of n.snapshots ?? []) lines.push(`${s.stream} ${s.scopeId}: ${s.reason}`);
  return lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), `… ${lines.length - MAX_LINES} more`] : lines;
}

/** Slack's mrkdwn control characters (&, <, >) as entities. */
function mrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
