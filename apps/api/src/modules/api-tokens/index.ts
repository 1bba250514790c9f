// The api-tokens module's public file: other modules import from here only (imports inside the module stay direct).
export { revokeTokensCreatedSince } from './api-tokens.service.ts';
export { TOKENS_REFUSED } from './api-token-auth.ts';
