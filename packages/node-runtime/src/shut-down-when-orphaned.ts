/**
 * npx and package-manager scripts start the gateway through `sh -c`, and neither the shell nor npm
 * passes SIGTERM on to it: a supervisor that stops `npx infergate` would leave the gateway running,
 * never drained. The launcher's exit shows as a new parent process; the gateway then shuts down as
 * on SIGTERM (drain included).
 */
export function shutDownWhenOrphaned(checkEveryMs = 500): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, checkEveryMs);
  timer.unref();
}
