import { strict as assert } from 'node:assert';
import { isSecretName, scrubEnv } from '../../../src/harness/sandbox/scrubEnv';

describe('scrubEnv', () => {
  it('drops variables whose names suggest secrets, and provider families', () => {
    const dropped = ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'AWS_REGION', 'AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN', 'GH_TOKEN', 'NPM_TOKEN', 'NODE_AUTH_TOKEN', 'OPENAI_API_KEY', 'STRIPE_SECRET', 'DB_PASSWORD', 'MYSQL_PWD_FILE', 'SESSION_ID', 'COOKIE_JAR', 'SSH_AUTH_SOCK', 'GOOGLE_APPLICATION_CREDENTIALS', 'private_key', 'SENTRY_DSN', 'DATABASE_URL', 'x_auth_header'];
    for (const n of dropped) assert.ok(isSecretName(n), `${n} should be dropped`);
  });

  it('keeps what tools need', () => {
    const kept = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TERM', 'SHELL', 'TMPDIR', 'TZ', 'PWD', 'NODE_ENV', 'CI', 'JAVA_HOME', 'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'EDITOR', 'XDG_RUNTIME_DIR'];
    for (const n of kept) assert.ok(!isSecretName(n), `${n} should be kept`);
  });

  it('drops values that are credentials whatever the name, plus extra names', () => {
    const out = scrubEnv(
      { PATH: '/bin', UPSTREAM: 'https://bob:s3cret@example.com/x', SOME_VAR: 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz', GHP: 'ghp_abcdefghijklmnopqrstuvwxyz0123', PLAIN: 'https://example.com', MY_THING: 'v' },
      ['my_thing'],
    );
    assert.deepEqual(out, { PATH: '/bin', PLAIN: 'https://example.com' });
  });
});
