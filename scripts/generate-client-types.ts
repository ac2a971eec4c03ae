/**
 * `npm run generate:client-types`: rewrites src/client/kind-types.generated.ts from the schemas
 * the server's kinds register (see scripts/kind-types.ts). Runs built, from dist/scripts/.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import '../api/kinds/index.js'; // registers every kind's schemas
import { definitions } from '../api/schema/schema.js';
import { KIND_TYPES_FILE, renderKindTypes } from './kind-types.js';

// This file runs as dist/scripts/generate-client-types.js: the repository is two folders up.
const target = fileURLToPath(new URL(`../../${KIND_TYPES_FILE}`, import.meta.url));
writeFileSync(target, renderKindTypes(definitions));
console.log(`wrote ${KIND_TYPES_FILE} (${definitions.size} schemas)`);
