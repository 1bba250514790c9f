// The accounts module's public file: sign-up, sign-in, token refresh, logout and password resets
// (the /auth/* routes). It stands above users, organizations, activity-log and HoS, which it uses;
// nothing but the app's route list imports it.
export { default as accountsRoutes } from './accounts.routes.ts';
