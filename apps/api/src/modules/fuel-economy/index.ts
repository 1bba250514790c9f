// The fuel-economy module's public file (issue 68, decision 0280): the wiring imports from here only.
export { default as fuelEconomyRoutes } from './fuel-economy.routes.ts';
