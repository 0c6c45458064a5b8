import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSchemas, renderSchema } from '../../../scripts/jsonSchemas';

const dir = join(__dirname, '..', '..', '..', 'media', 'schemas');

describe('JSON Schemas for jsonValidation', () => {
  const generated = generateSchemas();

  for (const name of ['kite-progress.schema.json', 'kite-config.schema.json']) {
    it(`media/schemas/${name} matches the zod source (run node scripts/gen-schemas.mjs when this fails)`, () => {
      assert.ok(generated[name], `no generator for ${name}`);
      assert.equal(readFileSync(join(dir, name), 'utf8'), renderSchema(generated[name]));
    });
  }

  it('the config schema rejects unknown keys and names the fields people edit', () => {
    const s = generated['kite-config.schema.json']!;
    assert.equal(s.additionalProperties, false);
    const props = s.properties as Record<string, { description?: string }>;
    for (const k of ['model', 'checks', 'budget', 'policy', 'max_gate_failures']) assert.ok(props[k], `missing ${k}`);
    assert.match(props.budget!.description ?? '', /win over the kite\.budget/);
  });

  it('the progress schema knows every feature status', () => {
    const s = generated['kite-progress.schema.json']!;
    const text = JSON.stringify(s);
    for (const status of ['todo', 'in_progress', 'done', 'gate_failed', 'proposed']) assert.ok(text.includes(`"${status}"`), status);
    assert.deepEqual((s.required as string[]).sort(), ['features', 'goal']);
  });

  it('package.json points jsonValidation at these files', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { jsonValidation: { url: string }[] } };
    const urls = pkg.contributes.jsonValidation.map((j) => j.url);
    assert.ok(urls.includes('./media/schemas/kite-progress.schema.json'));
    assert.ok(urls.includes('./media/schemas/kite-config.schema.json'));
  });
});
