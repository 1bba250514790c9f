// The places module's public file (issue 32, decision 0162): other modules import from here only.
export { PlaceIndex, type IndexedPlace } from './place-index.ts';
export { contains as placeContains } from './place-geometry.ts';
export { PlaceVisits } from './place-visits.service.ts';
export { placeVisitsFollower } from './place-visits.follower.ts';
