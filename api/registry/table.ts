/**
 * Server-side Table output (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`): what gives
 * `kubectl get` its columns. Rows carry the object as `includeObject` asks (Metadata by default,
 * which kubectl needs for `-A`'s NAMESPACE and `--show-labels`).
 */
import type { KubeObject, ListMeta } from './object.js';
import type { PrinterColumn, ResourceDefinition } from './resource-definition.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRow {
  cells: Array<string | number | boolean>;
  object?: unknown;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: Partial<ListMeta>;
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

/** Added in front of the kind's columns when a listing spans spaces, so stock kubectl shows it. */
const tenantColumn: PrinterColumn = {
  name: 'Tenant',
  type: 'string',
  description: 'The space the object belongs to.',
  priority: 0,
  cell: (obj) => obj.metadata.tenant ?? '',
};

export interface TableOptions {
  includeObject: IncludeObject;
  /** The listing spans every space: add the Tenant column. */
  acrossSpaces: boolean;
  metadata?: Partial<ListMeta>;
  now?: number;
}

export function tableColumns(def: ResourceDefinition, acrossSpaces: boolean): PrinterColumn[] {
  return acrossSpaces && def.scope !== 'cluster' ? [tenantColumn, ...def.columns] : def.columns;
}

function rowObject(obj: KubeObject, include: IncludeObject): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

export function toTable(def: ResourceDefinition, objects: KubeObject[], opts: TableOptions): Table {
  const now = opts.now ?? Date.now();
  const columns = tableColumns(def, opts.acrossSpaces);
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: opts.metadata ?? {},
    columnDefinitions: columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description, priority: c.priority })),
    rows: objects.map((obj) => {
      const row: TableRow = { cells: columns.map((c) => c.cell(obj, now)) };
      const object = rowObject(obj, opts.includeObject);
      if (object !== undefined) row.object = object;
      return row;
    }),
  };
}
