// One `npm run kits` at a time on a machine: the runs share the kits' cache (~/.cache/sms-emulator-kits: the runtime
// wheels, the Python kit's builder), a checkout's dist/ and kits/dist/, and two at once broke each other. The lock is
// the kernel's (flock, held by a small python3 child, which every machine that builds the kits has for pip), so a run
// that is killed, even with SIGKILL, releases it at once: its pipe closes, the child ends, and no stale file remains.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

// Takes the lock (saying who holds it when it has to wait), writes its owner into the file, then holds it until its
// standard input closes.
const holder = `
import fcntl, os, sys
path, owner = sys.argv[1], sys.argv[2]
lock = open(path, "a+")
try:
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
except BlockingIOError:
    lock.seek(0)
    print("busy " + (lock.read().strip() or "another run"), flush=True)
    fcntl.flock(lock, fcntl.LOCK_EX)
lock.seek(0)
lock.truncate()
lock.write(owner + "\\n")
lock.flush()
print("locked", flush=True)
sys.stdin.read()
`;

/**
 * Waits for the lock at `path`, calling `onWait(owner)` once if another run holds it; answers `release()`. `owner` is
 * what a waiting run is told (this run's pid and what it builds).
 */
export function acquireBuildLock(path, { owner, onWait = () => {}, python = process.env.PYTHON ?? 'python3' }) {
  mkdirSync(dirname(path), { recursive: true });
  const child = spawn(python, ['-c', holder, path, owner], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.on('error', (error) =>
      reject(new Error(`kits: cannot run ${python} to take the build lock: ${error.message}`)),
    );
    child.on('exit', (code) => reject(new Error(`kits: the build lock's holder (${python}) ended with ${code}`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      output += chunk;
      let end;
      while ((end = output.indexOf('\n')) !== -1) {
        const line = output.slice(0, end);
        output = output.slice(end + 1);
        if (line.startsWith('busy ')) onWait(line.slice('busy '.length));
        if (line === 'locked') {
          child.removeAllListeners('exit');
          resolve(
            () =>
              new Promise((done) => {
                child.once('exit', () => done());
                child.stdin.end();
              }),
          );
        }
      }
    });
  });
}
