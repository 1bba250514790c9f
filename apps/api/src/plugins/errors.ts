import type { ErrorBody } from '@fleet/api-contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { AppError } from '../lib/errors.ts';

export function errorBody(status: number, message: string, technicalMessage = message): ErrorBody {
  return { message, technicalMessage, status, timestamp: new Date().toISOString() };
}

function fieldName(v: FastifySchemaValidationError, context: string | undefined): string {
  const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const missing = (v.params as { missingProperty?: string } | undefined)?.missingProperty;
  return path || missing || context || 'request';
}

/** "email: must be a valid email; password: Password is a required field" */
export function validationMessage(err: FastifyError): { message: string; technical: string } {
  const list = err.validation ?? [];
  const parts = list.map((v) => `${fieldName(v, err.validationContext)}: ${v.message ?? 'is not valid.'}`);
  const unique = [...new Set(parts)];
  return {
    message: unique.join('; ') || 'The request is not valid.',
    technical: `Invalid ${err.validationContext ?? 'request'}: ${unique.join('; ')}`,
  };
}

/**
 * The one error handler: every failure answers {message, technicalMessage, status, timestamp}.
 * A 5xx never shows internals in production; it is logged with the request id.
 */
export function installErrorHandler(app: FastifyInstance, production: boolean): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err.validation) {
      const { message, technical } = validationMessage(err);
      return reply.code(400).send(errorBody(400, message, technical));
    }
    if (err instanceof AppError) {
      if (err.status === 401) reply.header('www-authenticate', 'Bearer');
      return reply.code(err.status).send(errorBody(err.status, err.message, err.technicalMessage));
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const message =
        status === 413 ? 'The request or file is too large' : status === 429 ? 'Too many requests, slow down and try again shortly' : err.message;
      return reply.code(status).send(errorBody(status, message, err.message));
    }
    request.log.error({ err, reqId: request.id }, 'request failed');
    const technical = production ? `Request id ${request.id}` : `${err.message} (request id ${request.id})`;
    return reply.code(500).send(errorBody(500, 'Something went wrong on our side. Please try again.', technical));
  });
}
