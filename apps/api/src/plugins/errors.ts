import type { ErrorBody } from '@fleet/api-contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { duplicateError, foreignKeyError } from '../db/sql/constraint-words.ts';
import { answerableErrorText, databaseUnavailable, failureKind, isDatabaseError } from '../db/sql/database-error.ts';
import { pgError } from '../db/sql/pg-error.ts';
import { AppError } from '../http/errors.ts';

export function errorBody(status: number, message: string, technicalMessage = message): ErrorBody {
  return { message, technicalMessage, status, timestamp: new Date().toISOString() };
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
 * The one error handler: every failure answers {message, technicalMessage, status, timestamp}.
 * A 5xx never shows internals in production, nor a database error's text in any mode; it is logged
 * with the request id.
 */
export function installErrorHandler(app: FastifyInstance, production: boolean): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err.validation) {
      const { message, technical } = validationMessage(err);
      return reply.code(400).send(errorBody(400, message, technical));
    }
    // A constraint the service did not expect (a race): words, never the constraint's name.
    const constraint = duplicateError(err) ?? foreignKeyError(err);
    if (constraint) return reply.code(constraint.status).send(errorBody(constraint.status, constraint.message, constraint.technicalMessage));
    if (err instanceof AppError) {
      if (err.status === 401) reply.header('www-authenticate', 'Bearer');
      if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
      return reply.code(err.status).send(errorBody(err.status, err.message, err.technicalMessage));
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const message =
        status === 413 ? 'The request or file is too large' : status === 429 ? 'Too many requests, slow down and try again shortly' : err.message;
      return reply.code(status).send(errorBody(status, message, err.message));
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
      return reply.code(503).send(errorBody(503, 'The database is not available right now. Please try again shortly.', production ? `Request id ${request.id}` : `${unavailable} (request id ${request.id})`));
    }
    // The log has the whole error. Outside production the answer adds its message, unless it came
    // from the database: that text is the statement and its parameters, never answered in any mode.
    const technical = production ? `Request id ${request.id}` : `${answerableErrorText(err)} (request id ${request.id})`;
    return reply.code(500).send(errorBody(500, 'Something went wrong on our side. Please try again.', technical));
  });
}
