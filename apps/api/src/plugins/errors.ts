import { errorCodeOfStatus, type ErrorBody, type ErrorCode, type ErrorParams } from '@fleet/api-contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { duplicateError, foreignKeyError } from '../db/sql/constraint-words.ts';
import { answerableErrorText, databaseUnavailable, failureKind, isDatabaseError } from '../db/sql/database-error.ts';
import { pgError } from '../db/sql/pg-error.ts';
import { AppError } from '../http/errors.ts';

/** The spec's error body; `code` from the contract's catalogue, the status's own when none is given. */
export function errorBody(
  status: number,
  message: string,
  technicalMessage = message,
  code: ErrorCode = errorCodeOfStatus(status),
  params?: ErrorParams,
): ErrorBody {
  const body: ErrorBody = { code, message, technicalMessage, status, timestamp: new Date().toISOString() };
  if (params) body.params = params;
  return body;
}

const VALIDATION_CODES: Record<string, ErrorCode> = {
  body: 'validation.invalid_body',
  querystring: 'validation.invalid_query',
  params: 'validation.invalid_params',
  headers: 'validation.invalid_headers',
};

/**
 * Fastify's own 4xx (a body that is not JSON, a content type no parser takes, a body over the limit,
 * a route's rate limit): the code by what failed, the status's otherwise.
 */
function fastifyCode(err: FastifyError, status: number): ErrorCode {
  if (status === 400 && (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY'))
    return 'validation.malformed_body';
  return errorCodeOfStatus(status);
}

/**
 * Fastify's refusals before a route is found, which never reach the error handler: an address whose
 * escapes are not UTF-8 (`%ED%A0%80`, FST_ERR_BAD_URL). The spec's body, as every other answer.
 */
export function frameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  const code = err.code === 'FST_ERR_BAD_URL' ? 'validation.malformed_url' : errorCodeOfStatus(status);
  void reply.code(status).send(errorBody(status, 'The address is not valid', err.message, code));
}

/** Where an issue is: the body's field path as the web form knows it (`vin`, `admin.email`), or `querystring.page`. */
function issuePath(v: FastifySchemaValidationError, context: string): string {
  const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (context === 'body') return path || 'body';
  return path ? `${context}.${path}` : context;
}

const unique = (list: string[]) => [...new Set(list)];

/**
 * Every bad field of the request at once. The message lists each in words ("VIN is a required
 * field; Unit number must be at most 32 characters"); the technical message pairs each with its
 * path (`vin: VIN is a required field; unitNumber: …`) so a client can put it under the field.
 */
export function validationMessage(err: FastifyError): { message: string; technical: string } {
  const context = err.validationContext ?? 'body';
  const issues = (err.validation ?? []).map((v) => {
    const path = issuePath(v, context);
    return { path, words: v.message ?? `${path} is not valid.` };
  });
  return {
    message: unique(issues.map((i) => i.words)).join('; ') || 'The request is not valid.',
    technical: unique(issues.map((i) => `${i.path}: ${i.words}`)).join('; ') || `Invalid ${context}`,
  };
}

/**
 * The one error handler: every failure answers {code, message, technicalMessage, status, timestamp}.
 * A 5xx never shows internals in production, nor a database error's text in any mode; it is logged
 * with the request id.
 */
export function installErrorHandler(app: FastifyInstance, production: boolean): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err.validation) {
      const { message, technical } = validationMessage(err);
      return reply.code(400).send(errorBody(400, message, technical, VALIDATION_CODES[err.validationContext ?? 'body'] ?? 'validation.invalid_body'));
    }
    // A constraint the service did not expect (a race): words, never the constraint's name.
    const constraint = duplicateError(err) ?? foreignKeyError(err);
    if (constraint) return reply.code(constraint.status).send(errorBody(constraint.status, constraint.message, constraint.technicalMessage, constraint.code));
    if (err instanceof AppError) {
      if (err.status === 401) reply.header('www-authenticate', 'Bearer');
      if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
      return reply.code(err.status).send(errorBody(err.status, err.message, err.technicalMessage, err.code, err.params));
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const message = status === 413 ? 'The request or file is too large' : status === 429 ? 'Too many requests, slow down and try again shortly' : err.message;
      return reply.code(status).send(errorBody(status, message, err.message, fastifyCode(err, status)));
    }
    request.log.error({ err, reqId: request.id }, 'request failed');
    // The database was away under the request, as ingest's failureKind reads it: the embedded
    // database's thread stopped (a data directory is opened again in a new thread; /readyz says when
    // an in-memory one is lost), a connection lost or ended by the server, the server refusing
    // work, or a lock wait that ran out (on Citus, the organization's shards being moved). Whether
    // it committed is unknown; the client may try again, as a device does.
    const unavailable =
      databaseUnavailable(err) ??
      (pgError(err)?.code === '55P03' ? 'a lock wait timed out' : isDatabaseError(err) && failureKind(err) === 'unavailable' ? answerableErrorText(err) : null);
    if (unavailable) {
      reply.header('retry-after', '5');
      const technical = production ? `Request id ${request.id}` : `${unavailable} (request id ${request.id})`;
      return reply
        .code(503)
        .send(errorBody(503, 'The database is not available right now. Please try again shortly.', technical, 'common.database_unavailable'));
    }
    // The log has the whole error. Outside production the answer adds its message, unless it came
    // from the database: that text is the statement and its parameters, never answered in any mode.
    const technical = production ? `Request id ${request.id}` : `${answerableErrorText(err)} (request id ${request.id})`;
    return reply.code(500).send(errorBody(500, 'Something went wrong on our side. Please try again.', technical));
  });
}
