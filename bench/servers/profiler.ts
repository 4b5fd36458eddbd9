/**
 * CPU profiling of a measured window only (the same V8 profiler as `node --cpu-prof`, started and stopped
 * over IPC so start-up and setup stay out of the profile). Writes a .cpuprofile for bench/profile-summary.ts.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

let session: Session | null = null;

export async function startProfile(): Promise<void> {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
}

export async function stopProfile(file: string): Promise<string> {
  if (!session) throw new Error('no profile running');
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  session = null;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(profile));
  return file;
}
