// What /proc says about the processes around this extension host, for the load test: how the
// kernel shares the CPU between the window's browser and this host (the figure depends on it,
// README: Big logs), and how the replay adapter was started. The browser
// is found as the Chromium whose profile is in this run's TMPDIR (Playwright makes it there; the
// server, and so this host, share run.sh's TMPDIR), with every process it started.
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { DAP_PIPE_ENV } from '../../src/harness/replay/adapterPlacement';

export interface WindowScheduling {
  /** One line for the report. */
  text: string;
  /** run.sh put the server in a cpu cgroup of its own (KITE_IT_ONE_SCHED_GROUP, the default). */
  hostInRunGroup: boolean;
  /** The browser's processes found, and how many of them are not in the host's cpu cgroup. */
  browserProcesses: number;
  outsideHostGroup: number;
}

interface Proc {
  pid: number;
  ppid: number;
  session: number;
  cmdline: string;
}

export function windowScheduling(): WindowScheduling {
  const hostGroup = cpuCgroupOf('self');
  const hostInRunGroup = hostGroup.includes('/kite-e2e-');
  const procs = processes();
  const browser = procs.find((p) => /chrom/i.test(p.cmdline.split(' ')[0]) && !p.cmdline.includes('--type=') && p.cmdline.includes(tmpdir()));
  if (!browser) return { text: `the browser not found (host's cpu cgroup ${hostGroup || '?'})`, hostInRunGroup, browserProcesses: 0, outsideHostGroup: 0 };
  const family = descendants(procs, browser.pid);
  const outside = family.filter((p) => cpuCgroupOf(String(p.pid)) !== hostGroup);
  const hostSession = procs.find((p) => p.pid === process.pid)?.session;
  const autogroup = readText('/proc/sys/kernel/sched_autogroup_enabled').trim() === '1';
  let text: string;
  if (outside.length === 0 && hostInRunGroup) text = `the browser (${family.length} processes) and the extension host in one cpu cgroup (${hostGroup})`;
  else if (outside.length > 0) text = `the browser in a cpu cgroup apart (${outside.length} of ${family.length} processes)`;
  else if (autogroup && browser.session !== hostSession) text = 'the browser in a scheduling group of its own (autogroup: a session of its own)';
  else text = autogroup ? 'the browser and the extension host in one session (one autogroup)' : 'autogroup off, one cpu cgroup: one group';
  return { text, hostInRunGroup, browserProcesses: family.length, outsideHostGroup: outside.length };
}

/** The process's cpu cgroup (cgroup v1's cpu controller, else v2's unified path); '' when unknown. */
function cpuCgroupOf(pid: string): string {
  const lines = readText(`/proc/${pid}/cgroup`).split('\n');
  const v1 = lines.find((l) => l.split(':')[1]?.split(',').includes('cpu'));
  const line = v1 ?? lines.find((l) => l.startsWith('0::'));
  return line ? line.slice(line.indexOf(':', line.indexOf(':') + 1) + 1) : '';
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readText(`/proc/${name}/stat`);
    if (!stat) continue; // gone meanwhile
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.push({ pid: Number(name), ppid: Number(f[1]), session: Number(f[3]), cmdline: readText(`/proc/${name}/cmdline`).split('\0').join(' ') });
  }
  return out;
}

/** The process and every process under it. */
function descendants(procs: Proc[], root: number): Proc[] {
  const family = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (family.has(p.pid) || !family.has(p.ppid)) continue;
      family.add(p.pid);
      grew = true;
    }
  }
  return procs.filter((p) => family.has(p.pid));
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The replay adapter processes this extension host started, and whether each serves a socket
 *  (DAP_PIPE_ENV in its environment: started off the host's loop) rather than stdio. */
export function adapterProcessesOfThisHost(): { pid: number; servesSocket: boolean }[] {
  return processes()
    .filter((p) => p.ppid === process.pid && p.cmdline.includes('debugAdapter.js'))
    .map((p) => ({ pid: p.pid, servesSocket: readText(`/proc/${p.pid}/environ`).split('\0').some((v) => v.startsWith(`${DAP_PIPE_ENV}=`)) }));
}
