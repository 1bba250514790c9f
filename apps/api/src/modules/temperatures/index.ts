// The temperatures module's public file (issue 73): the ways in hand readings to recordTemperatures; the wiring mounts the routes.
export { default as temperaturesRoutes } from './temperatures.routes.ts';
export { publicLoadTemperature, recordTemperatures, type RecordResult, type TemperatureInput } from './temperatures.service.ts';
