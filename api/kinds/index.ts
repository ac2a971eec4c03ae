/** Every built-in kind the server serves, core group first. */
import type { ResourceDefinition } from '../registry/resource-definition.js';
import { coreKinds } from './core/index.js';
import { groupKinds } from './groups.js';
import { authenticationKinds } from './authentication/index.js';
import { authorizationKinds } from './authorization/index.js';

export const builtinKinds: readonly ResourceDefinition[] = [...coreKinds, ...groupKinds, ...authenticationKinds, ...authorizationKinds];
