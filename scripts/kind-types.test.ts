import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import '../api/kinds/index.js'; // registers every kind's schemas
import { definitions, intOrString, list, map, object, quantity, ref, string, type SchemaDefinitions } from '../api/schema/schema.js';
import { GENERATE_COMMAND, KIND_TYPES_FILE, renderKindTypes, typeNames } from './kind-types.js';

describe('the client kind types', () => {
  it('are current with the schemas', () => {
    const committed = readFileSync(new URL(`../${KIND_TYPES_FILE}`, import.meta.url), 'utf8');
    expect(committed === renderKindTypes(definitions), `${KIND_TYPES_FILE} is stale: run \`${GENERATE_COMMAND}\``).toBe(true);
  });

  it('prefix by group and version only the names several schemas share', () => {
    const names = typeNames(['io.k8s.api.core.v1.Pod', 'io.k8s.api.core.v1.Event', 'io.k8s.api.events.v1.Event', 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService']);
    expect(Object.fromEntries(names)).toEqual({
      'io.k8s.api.core.v1.Pod': 'Pod',
      'io.k8s.api.core.v1.Event': 'CoreV1Event',
      'io.k8s.api.events.v1.Event': 'EventsV1Event',
      'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService': 'APIService',
    });
  });

  it('render each schema form as its TypeScript type, with descriptions', () => {
    const schemas: SchemaDefinitions = new Map([
      [
        'io.example.v1.Widget',
        object(
          'A widget.',
          {
            'x-size': quantity('How big.'),
            port: intOrString('Where.'),
            parts: list(ref('io.example.v1.Part'), 'Its parts.'),
            labels: map(string('A label.'), 'Labels.'),
            mode: { type: 'string', description: 'How it runs.', enum: ['Fast', 'Slow'] },
            raw: { type: 'object', description: 'Anything.', 'x-kubernetes-preserve-unknown-fields': true },
          },
          { required: ['port'] },
        ),
      ],
      ['io.example.v1.Part', { description: 'Any JSON value.' }],
    ]);
    const rendered = renderKindTypes(schemas);
    expect(rendered).toContain(
      [
        '/**',
        ' * A widget.',
        ' *',
        ' * Schema `io.example.v1.Widget`.',
        ' */',
        'export interface Widget {',
        '  /** Labels. */',
        '  labels?: Record<string, string>;',
        '  /** How it runs. */',
        "  mode?: 'Fast' | 'Slow';",
        '  /** Its parts. */',
        '  parts?: Part[];',
        '  /** Where. */',
        '  port: number | string;',
        '  /** Anything. */',
        '  raw?: Record<string, unknown>;',
        '  /** How big. */',
        "  'x-size'?: string | number;",
        '}',
      ].join('\n'),
    );
    expect(rendered).toContain(['/**', ' * Any JSON value.', ' *', ' * Schema `io.example.v1.Part`.', ' */', 'export type Part = unknown;'].join('\n'));
  });
});
