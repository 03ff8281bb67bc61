// What the kernel knows about a process: CPU time (/proc/<pid>/stat utime + stime) and memory
// (/proc/<pid>/status VmRSS, VmHWM; `echo 5 > /proc/<pid>/clear_refs` resets VmHWM to the current RSS).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

let ticksPerSecond = 100;
try {
  ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  // getconf missing: Linux's USER_HZ is 100 nearly everywhere.
}

/** utime + stime of the process, in microseconds (resolution 1 / CLK_TCK). */
export function cpuMicroseconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  // The command name (field 2) may contain spaces: fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / ticksPerSecond;
}

/** VmRSS and VmHWM in bytes. */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'latin1');
  const kib = (name) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
}

/** Resets the peak-RSS mark; false when the kernel does not let us (then VmHWM is the peak since start). */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
