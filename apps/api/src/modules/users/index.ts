// The users module's public file: other modules import from here only (imports inside the module stay direct).
export { sendInvitationEmail } from './invitations.ts';
export type { MailDeps } from './invitations.ts';
export { assertMayGrant, driverRoleOf, rolePermissions } from './users.policies.ts';
export { imageUrl, presentCurrentUser } from './users.presenter.ts';
