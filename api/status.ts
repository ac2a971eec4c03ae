/**
 * Kubernetes' `Status`: the model every layer speaks. Later layers throw `ApiError`; storage errors
 * are mapped to it by the registry; the HTTP layer renders it (`src/server/status.ts`) and the
 * client turns a Status it receives back into one (`src/client/api-status.ts`).
 *
 * @example
 *   throw new ApiError(404, 'NotFound', 'configmaps "cm1" not found', { name: 'cm1', kind: 'configmaps' });
 *   // → 404 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
 *   //        "message":"configmaps \"cm1\" not found","reason":"NotFound","details":{…},"code":404}
 */
/** Kubernetes' `metav1.StatusReason` values. */
export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'Invalid'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'TooManyRequests'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'ServerTimeout'
  | 'Timeout'
  /** No reason: an admission webhook's refusal that names none (kubectl prints `Error from server: …`). */
  | '';

/** One reason among several, e.g. a field that failed validation (`FieldValueInvalid`, `spec.x`). */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  /** The resource (plural) or kind the error is about. */
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** An error meant for the client: its code, reason, message and details become the Status. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }
}

/** The reason Kubernetes gives for a bare HTTP code (Fastify's own errors, a proxy's answer carry only a code). */
const REASON_BY_CODE: Readonly<Record<number, StatusReason>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

export function reasonForCode(code: number): StatusReason | undefined {
  return REASON_BY_CODE[code];
}

const INTERNAL_MESSAGE = 'Internal error occurred: unexpected server error (details are in the server log)';

/**
 * The Status for anything thrown. Only `ApiError`s and client errors that carry a 4xx
 * `statusCode` (Fastify's body, content-type and URL errors) reach the client with their
 * message; everything else is a 500 whose cause stays in the server log.
 */
export function statusFromError(err: unknown): Status {
  if (err instanceof ApiError) return failureStatus(err.code, err.reason, err.message, err.details);
  const code = clientErrorCode(err);
  if (code !== null) return failureStatus(code, REASON_BY_CODE[code] ?? 'BadRequest', (err as Error).message);
  return failureStatus(500, 'InternalError', INTERNAL_MESSAGE);
}

function clientErrorCode(err: unknown): number | null {
  if (!(err instanceof Error) || !('statusCode' in err)) return null;
  const code = err.statusCode;
  return typeof code === 'number' && code >= 400 && code < 500 ? code : null;
}

/**
 * A failure Status, built in `metav1.Status` order, details before code (the JSON encoder also
 * drops Go's empty fields). Also for protocol errors answered before any request exists.
 */
export function failureStatus(code: number, reason: StatusReason, message: string, details?: StatusDetails): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code };
}
