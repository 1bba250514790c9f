import { LiveEtas } from './live-etas.ts';
import { routingOf } from './routing.ts';
import { follower } from '../positions/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Live ETAs of running loads behind ingest (decision 0167). */
    liveEtas: LiveEtas;
  }
}

/** Running loads' ETAs re-planned from their vehicles' positions and drivers' clocks (decision 0167). */
export const liveEtasFollower = follower('liveEtas', ({ database, config, onError, info }) => {
  const liveEtas = new LiveEtas(database.db, routingOf(config), { onError: onError('live ETAs') }, config.liveEtas);
  return {
    it: liveEtas,
    follows: config.liveEtas,
    committed: (rows, stored) => liveEtas.enqueue(rows, stored),
    idle: () => liveEtas.idle(),
    close: () => liveEtas.close(),
    ...(config.liveEtas
      ? {
          catchUp: () => {
            const started = Date.now();
            return liveEtas
              .recompute()
              .then(
                (n) =>
                  n && info(`live ETAs: ${n} running loads planned from their vehicles' latest positions in ${((Date.now() - started) / 1000).toFixed(1)} s`),
              )
              .catch(onError('live ETAs catch-up'));
          },
        }
      : {}),
  };
});
