import { environmentJsonSchema } from '@engage/contracts/environment-file.ts';
import { describe, expect, it } from 'vitest';

/** Every property of every object in a JSON Schema, with its place (`$defs/X.field`). */
function propertiesOf(schema: unknown): { place: string; description: unknown }[] {
  const found: { place: string; description: unknown }[] = [];
  const visit = (node: unknown, place: string) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'properties' && child && typeof child === 'object') {
        for (const [name, property] of Object.entries(child as Record<string, { description?: unknown }>)) {
          found.push({ place: `${place}.${name}`, description: property.description });
          visit(property, `${place}.${name}`);
        }
      } else visit(child, `${place}/${key}`);
    }
  };
  visit(schema, '');
  return found;
}

describe('the JSON Schema of the environment file', () => {
  it('describes every field, so an editor explains each one', () => {
    const properties = propertiesOf(environmentJsonSchema());
    expect(properties.length).toBeGreaterThan(150);
    expect(properties.filter((p) => typeof p.description !== 'string' || p.description === '')).toEqual([]);
  });
});
