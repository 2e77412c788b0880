import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, fstatSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PAGE = 4096;

/** A size-limited tmpfs the test mounts: a disk that really fills up (ENOSPC from the kernel). */
export interface SmallDisk {
  readonly dir: string;
  /** Fills the disk, leaving `leaveBytes` (rounded up to whole 4 KiB pages) free. */
  fill(leaveBytes?: number): void;
  /** Frees what `fill` took. */
  free(): void;
  unmount(): void;
}

/**
 * Mounts a tmpfs of `bytes`. Tests run as root in CI; where mounting is impossible this throws
 * (the full-disk cases fail loudly rather than skip).
 */
export function mountSmallDisk(bytes: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`the full-disk cases need a size-limited tmpfs mounted by the test (run as root, as CI does); mount failed: ${stderr || String(error)}`);
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill(leaveBytes = 0) {
      const fd = openSync(filler, 'a');
      try {
        const page = Buffer.alloc(PAGE, 0x55);
        for (;;) {
          try {
            writeSync(fd, page);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
            throw error;
          }
        }
        const leave = Math.ceil(leaveBytes / PAGE) * PAGE;
        const { size } = fstatSync(fd);
        if (leave > 0) ftruncateSync(fd, Math.max(0, size - (size % PAGE) - leave));
      } finally {
        closeSync(fd);
      }
    },
    free() {
      try {
        unlinkSync(filler);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },
    unmount() {
      execFileSync('umount', [dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
