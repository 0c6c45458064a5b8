// Model specs for the OpenAI-compatible providers, where their URL and key come from, and prices:
// OpenAI's models are listed, a local model is "price unknown" until config `prices` says so.
import assert from 'node:assert/strict';
import { parseConfig } from '../../../src/harness/config/config';
import { costOfRun, costReport, formatCostReport } from '../../../src/harness/events/cost';
import { PromMetrics } from '../../../src/harness/events/prometheus';
import { createModel } from '../../../src/harness/model/index';
import { ModelError } from '../../../src/harness/model/model';
import { knownPriceOf, priceOf, unknownPriceProblem } from '../../../src/harness/model/pricing';
import { isLoopbackURL, resolveProvider } from '../../../src/harness/model/providers';
import { RunBuilder } from '../../helpers/events';

describe('openai: providers and prices', () => {
  it('presets have their default URLs and need no key; config overrides a URL; the OpenAI key never goes to a local server', () => {
    const env = { OPENAI_API_KEY: 'sk-proj-x' };
    assert.deepEqual(resolveProvider('ollama', undefined, env), { provider: 'ollama', label: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', apiKey: null, maxTokensField: 'max_tokens' });
    assert.equal(resolveProvider('lmstudio', undefined, env).baseURL, 'http://127.0.0.1:1234/v1');
    assert.equal(resolveProvider('vllm', undefined, env).baseURL, 'http://127.0.0.1:8000/v1');
    assert.equal(resolveProvider('llamacpp', undefined, env).baseURL, 'http://127.0.0.1:8080/v1');
    assert.equal(resolveProvider('vllm', { vllm: { base_url: 'http://gpu-box:8000/v1' } }, env).baseURL, 'http://gpu-box:8000/v1');
    const openai = resolveProvider('openai', undefined, env);
    assert.deepEqual([openai.baseURL, openai.apiKey, openai.maxTokensField], ['https://api.openai.com/v1', 'sk-proj-x', 'max_completion_tokens']);
    assert.equal(createModel('ollama:qwen2.5-coder:7b', { env: {} }).id, 'ollama:qwen2.5-coder:7b');
  });

  it('openai: OPENAI_BASE_URL wins over the config; no key and no URL is a clear missing_key; a workspace config may not send the key to a remote host', () => {
    assert.equal(resolveProvider('openai', { openai: { base_url: 'http://127.0.0.1:9/v1' } }, { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'https://proxy.example/v1' }).baseURL, 'https://proxy.example/v1');
    assert.equal(resolveProvider('openai', { openai: { base_url: 'http://127.0.0.1:9/v1' } }, { OPENAI_API_KEY: 'k' }).baseURL, 'http://127.0.0.1:9/v1');
    assert.throws(
      () => createModel('openai:gpt-4.1', { env: {} }),
      (e: unknown) => e instanceof ModelError && e.code === 'missing_key' && /^No OpenAI API key: set the OPENAI_API_KEY environment variable/.test(e.message),
    );
    assert.throws(
      () => resolveProvider('openai', { openai: { base_url: 'https://evil.example/v1' } }, { OPENAI_API_KEY: 'k' }),
      (e: unknown) => e instanceof ModelError && /Kite does not send your OpenAI API key to a host a workspace file chose\. Set OPENAI_BASE_URL=https:\/\/evil\.example\/v1 in your own environment instead/.test(e.message),
    );
  });

  it('loopback is judged from the literal: hostnames that only look local are remote, so the key is refused for them', () => {
    for (const local of ['http://127.0.0.1:11434/v1', 'http://127.8.9.10/v1', 'http://127.1/v1', 'http://0x7f.0.0.1/v1', 'http://localhost:8000/v1', 'http://LOCALHOST/v1', 'http://[::1]:8080/v1'])
      assert.equal(isLoopbackURL(local), true, local);
    const hostile = [
      'http://127.attacker.example/v1',
      'http://127.0.0.1.attacker.example/v1',
      'http://localhost.attacker.example/v1',
      'http://attacker-localhost/v1',
      'http://1270.0.0.1.example/v1',
      'http://128.0.0.1/v1',
      'http://[::2]/v1',
      'not a url',
    ];
    for (const url of hostile) {
      assert.equal(isLoopbackURL(url), false, url);
      if (url.startsWith('http'))
        assert.throws(() => resolveProvider('openai', { openai: { base_url: url } }, { OPENAI_API_KEY: 'sk-secret' }), /does not send your OpenAI API key/, url);
    }
    // Without a key nothing secret is at stake: the URL is used as given.
    assert.equal(resolveProvider('openai', { openai: { base_url: 'http://127.attacker.example/v1' } }, {}).baseURL, 'http://127.attacker.example/v1');
    assert.equal(resolveProvider('openai', { openai: { base_url: 'http://[::1]:9/v1' } }, { OPENAI_API_KEY: 'k' }).apiKey, 'k');
  });

  it('config `providers` accepts the known names with http(s) URLs and names a typo or a bad URL', () => {
    assert.equal(parseConfig('{"providers": {"ollama": {"base_url": "http://127.0.0.1:11434/v1"}}}').providers?.ollama?.base_url, 'http://127.0.0.1:11434/v1');
    assert.throws(() => parseConfig('{"providers": {"olama": {"base_url": "http://x/v1"}}}'), /providers.*olama/);
    assert.throws(() => parseConfig('{"providers": {"vllm": {"base_url": "gpu-box:8000"}}}'), /providers\.vllm\.base_url/);
  });

  it('OpenAI models are priced (aliases and their dated snapshots); local and unknown models are "price unknown" unless config `prices` lists them', () => {
    assert.deepEqual(knownPriceOf('openai:gpt-4.1-mini-2025-04-14'), priceOf('openai:gpt-4.1-mini'));
    assert.equal(knownPriceOf('openai:gpt-4o-mini')?.input, 0.15);
    assert.equal(knownPriceOf('ollama:qwen2.5-coder'), null);
    assert.equal(knownPriceOf('openai:some-new-model'), null);
    assert.deepEqual(knownPriceOf('ollama:qwen2.5-coder:7b', { 'ollama:qwen2.5-coder': { input: 0, output: 0 } }), { input: 0, output: 0 });
    assert.ok(knownPriceOf('claude-sonnet-5-5'), 'Claude keeps its price');
    assert.match(unknownPriceProblem('ollama:qwen2.5-coder', 2, {}) ?? '', /^ollama:qwen2\.5-coder has no known price, so the dollar budget \(\$2\) cannot be enforced; the run was not started\./);
    assert.equal(unknownPriceProblem('ollama:qwen2.5-coder', null, {}), null, 'no dollar budget: it may run, tokens still count');
  });

  it('an OpenAI id is priced only when the table lists it exactly (alias or dated snapshot); a longer id is another model, "price unknown"', () => {
    assert.deepEqual(knownPriceOf('openai:gpt-5-2025-08-07'), knownPriceOf('openai:gpt-5'));
    assert.deepEqual(knownPriceOf('openai:gpt-4o-2024-11-20'), knownPriceOf('openai:gpt-4o'));
    assert.equal(knownPriceOf('openai:gpt-4o-2024-05-13')?.input, 5, 'the first gpt-4o snapshot kept its own, higher price');
    for (const unknown of ['openai:gpt-5-pro', 'openai:gpt-5-codex', 'openai:gpt-4o-audio-preview', 'openai:gpt-4o-2099-01-01', 'openai:o3-pro', 'openai:gpt-4.1-mini-fast'])
      assert.equal(knownPriceOf(unknown), null, unknown);
    assert.match(unknownPriceProblem('openai:gpt-5-pro', 5) ?? '', /^openai:gpt-5-pro has no known price, so the dollar budget \(\$5\) cannot be enforced; the run was not started\./);
    // The person's own `prices` still cover a family (every tag of a local model).
    assert.deepEqual(knownPriceOf('openai:gpt-5-pro', { 'openai:gpt-5': { input: 15, output: 120 } }), { input: 15, output: 120 });
    assert.ok(knownPriceOf('claude-sonnet-4-5-20250929'), "Claude's dated snapshots keep matching their family");
  });

  it('kite cost shows "price unknown" for an unpriced model and lists each model with its provider', () => {
    const local = new RunBuilder('local').start({ model: 'ollama:qwen2.5-coder' }).model([{ type: 'text', text: 'Done.' }]).end();
    // As the run logged it: the local model answered, with no price to count.
    const unpriced = local.events().map((e) => (e.kind === 'model' ? { ...e, model: 'ollama:qwen2.5-coder', price_unknown: true as const, cost_usd: 0 } : e));
    const claude = new RunBuilder('claude').start().model([{ type: 'text', text: 'Done.' }]).end();
    const report = costReport([costOfRun(unpriced, 'local.jsonl'), costOfRun(claude.events(), 'claude.jsonl')]);
    assert.equal(report.runs[0]!.provider, 'ollama');
    assert.equal(report.runs[0]!.price_unknown, true);
    const text = formatCostReport(report);
    assert.match(text, /^local\s.*\sprice unknown\s+price unknown$/m);
    assert.match(text, /^ollama\s+qwen2\.5-coder\s+1\s+[\d,]+\s+price unknown$/m);
    assert.match(text, /^anthropic\s+claude-\S+\s+1\s+[\d,]+\s+\$\d+\.\d{4}$/m);
    // The metrics export never prices a local model as Claude.
    const metrics = new PromMetrics();
    metrics.addRun(unpriced);
    assert.match(metrics.format(), /^kite_cost_usd_total 0$/m);
  });
});
