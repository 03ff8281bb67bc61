// `--profile`: infergate under `node --cpu-prof`, one process per throughput scenario (1-4, 10), loaded at peak by
// the closed-loop generator; each profile is summarised (summarise-cpuprofile.mjs) and kept.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closedLoop } from './http-load.mjs';
import { stopProcess } from './processes.mjs';
import { startInfergate, startStub } from './start-targets.mjs';
import { summariseCpuProfile } from './summarise-cpuprofile.mjs';
import { runWrk } from './wrk-load.mjs';

export async function runProfile({
  settings,
  layout,
  workDirectory,
  resultsDirectory,
  headers,
  apiKey,
  scenarios,
  log,
}) {
  const stub = await startStub({
    workDirectory,
    longChunks: settings.longChunks,
    longIntervalMs: settings.longIntervalMs,
  });
  const seconds = Math.max(5, settings.seconds * 2);
  for (const scenario of scenarios) {
    const profileDirectory = join(workDirectory, `profile-${scenario.id}`);
    const infergate = await startInfergate({
      workDirectory,
      stubPorts: stub.ports,
      apiKey,
      core: layout.proxyCore,
      nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`, '--cpu-prof-interval=200'],
      fileTag: `infergate-profile-${scenario.id}`,
    });
    const result =
      settings.generator === 'wrk'
        ? await runWrk({
            url: `${infergate.origin}${scenario.path}`,
            body: scenario.body,
            headers,
            connections: settings.connections,
            seconds,
            scriptDirectory: workDirectory,
            name: `profile-${scenario.id}`,
          })
        : await closedLoop({
            origin: infergate.origin,
            request: { path: scenario.path, method: 'POST', headers, body: scenario.body },
            connections: settings.connections,
            seconds,
          });
    // SIGTERM: main.js closes the server and exits, and node writes the profile on exit.
    await stopProcess(infergate, 15_000);
    const file = readdirSync(profileDirectory).find((name) => name.endsWith('.cpuprofile'));
    if (file === undefined) {
      log(`scenario ${scenario.id}: no profile written`);
      continue;
    }
    const summary = summariseCpuProfile(
      JSON.parse(readFileSync(join(profileDirectory, file), 'utf8')),
      30,
    );
    const text = `scenario ${scenario.id}: ${scenario.title}\n${Math.round(result.rps)} req/s under the profiler, ${result.errors} errors\nprofile: ${join(profileDirectory, file)}\n\n${summary}\n`;
    writeFileSync(join(resultsDirectory, `profile-${scenario.id}.txt`), text);
    log(`\n${text}`);
  }
}
