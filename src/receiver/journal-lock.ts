import { join } from 'node:path';
import { acquirePidLock, type PidLock } from '../infra/pid-lock.js';
import { journalLocked } from './receiver-errors.js';

/**
 * One receiver writes a journal folder. The merge deletes sealed segments (all but the newest),
 * so a second writer's segment could be deleted under it; the lock file prevents that setup.
 * A lock left by a process that died (kill -9) is taken over: its pid no longer runs.
 */
const LOCK_FILE = 'writer.lock';

export type JournalLock = PidLock;

export async function lockJournal(dir: string): Promise<JournalLock> {
  return acquirePidLock(join(dir, LOCK_FILE), (holder) => journalLocked(dir, holder));
}
