import type { EtaConfidence, TrackingStopStatus } from '@fleet/api-contract/tracking';
import type { LoadStatus, StopKind } from '@fleet/api-contract/loads';
import type { Language } from '../../i18n/language.ts';

// The public tracking page's words (issue 69) in the three languages the driver app speaks. A plain
// object rather than i18next: the page's own bundle must stay small (decision 0286), and it has
// about forty words. Type-only imports from the contract keep zod out of the bundle.

export interface TrackWords {
  title: string;
  vehicleTitle: string;
  noVehiclePosition: string;
  load: (n: string) => string;
  truck: (n: string) => string;
  reference: string;
  nextStop: string;
  eta: string;
  confidence: Record<EtaConfidence, string>;
  noEta: string;
  atStop: (name: string) => string;
  arrivedAt: string;
  departedAt: string;
  appointment: string;
  late: string;
  onTime: string;
  delivered: string;
  cancelled: string;
  stops: string;
  history: string;
  /** A delivered load's proofs of delivery (issue 70). */
  proofTitle: string;
  proofOpen: (pages: number) => string;
  proofAtStop: (n: number) => string;
  noHistory: string;
  lastPosition: string;
  noPosition: string;
  mapLabel: string;
  loadStatus: Record<LoadStatus, string>;
  stopStatus: Record<TrackingStopStatus, string>;
  stopKind: Record<StopKind, string>;
  timesIn: (zone: string) => string;
  updated: (time: string) => string;
  expires: (time: string) => string;
  refreshFailed: string;
  loading: string;
  expiredTitle: string;
  expiredBody: string;
  failedTitle: string;
  failedBody: string;
  retry: string;
  poweredBy: string;
  /** The load's reefer temperature, where the carrier shows it (issue 73). */
  temperature: {
    title: string;
    setPoint: (band: string) => string;
    readAt: (time: string) => string;
    inRange: string;
    outOfRange: string;
    chart: (hours: number) => string;
  };
  /** The map frame's own words. */
  map: { baseMap: string; offline: string; loading: string; unavailable: string; showingOffline: string; close: string };
}

const en: TrackWords = {
  title: 'Shipment tracking',
  vehicleTitle: 'Truck location',
  noVehiclePosition: 'The truck has not reported its position yet. This page updates itself.',
  load: (n) => `Load ${n}`,
  truck: (n) => `Truck ${n}`,
  reference: 'Reference',
  nextStop: 'Next stop',
  eta: 'Estimated arrival',
  confidence: { HIGH: 'High confidence', MEDIUM: 'Medium confidence', LOW: 'Low confidence' },
  noEta: 'No estimate yet',
  atStop: (name) => `At ${name}`,
  arrivedAt: 'Arrived',
  departedAt: 'Departed',
  appointment: 'Appointment',
  late: 'Running late',
  onTime: 'On time',
  delivered: 'Delivered',
  cancelled: 'This load was cancelled',
  stops: 'Stops',
  history: 'Status history',
  proofTitle: 'Proof of delivery',
  proofOpen: (n) => `Open the PDF (${n} ${n === 1 ? 'page' : 'pages'})`,
  proofAtStop: (n) => `Stop ${n}`,
  noHistory: 'No updates yet.',
  lastPosition: 'Last position',
  noPosition: 'The truck’s position is shown while the load is on the road.',
  mapLabel: 'The truck on the map',
  loadStatus: { PLANNED: 'Planned', ASSIGNED: 'Assigned', EN_ROUTE: 'En route', AT_STOP: 'At a stop', DELIVERED: 'Delivered', CANCELLED: 'Cancelled' },
  stopStatus: { PENDING: 'Scheduled', ARRIVED: 'Arrived', DEPARTED: 'Completed' },
  stopKind: { PICKUP: 'Pick-up', DELIVERY: 'Delivery' },
  timesIn: (zone) => `Times in ${zone}`,
  updated: (time) => `Updated ${time}`,
  expires: (time) => `This link works until ${time}`,
  refreshFailed: 'Could not refresh. Showing the last update.',
  loading: 'Loading the shipment',
  expiredTitle: 'This link has expired',
  expiredBody: 'Tracking links work for a limited time. Ask the carrier for a new link.',
  failedTitle: 'Tracking is unavailable',
  failedBody: 'We could not reach the server. Check your connection and try again.',
  retry: 'Try again',
  poweredBy: 'Tracking by Fleetline',
  temperature: {
    title: 'Temperature',
    setPoint: (band) => `Set point ${band}`,
    readAt: (time) => `Read at ${time}`,
    inRange: 'In range',
    outOfRange: 'Out of range',
    chart: (hours) => `Temperature of the last ${hours} hours, with the set point band`,
  },
  map: {
    baseMap: 'Base map',
    offline: 'Offline',
    loading: 'Loading the map',
    unavailable: 'Street map unavailable',
    showingOffline: 'Showing the offline map instead.',
    close: 'Close',
  },
};

const es: TrackWords = {
  title: 'Seguimiento del envío',
  vehicleTitle: 'Ubicación del camión',
  noVehiclePosition: 'El camión aún no ha informado su posición. Esta página se actualiza sola.',
  load: (n) => `Carga ${n}`,
  truck: (n) => `Camión ${n}`,
  reference: 'Referencia',
  nextStop: 'Próxima parada',
  eta: 'Llegada estimada',
  confidence: { HIGH: 'Confianza alta', MEDIUM: 'Confianza media', LOW: 'Confianza baja' },
  noEta: 'Aún sin estimación',
  atStop: (name) => `En ${name}`,
  arrivedAt: 'Llegó',
  departedAt: 'Salió',
  appointment: 'Cita',
  late: 'Con retraso',
  onTime: 'A tiempo',
  delivered: 'Entregado',
  cancelled: 'Esta carga fue cancelada',
  stops: 'Paradas',
  history: 'Historial de estado',
  proofTitle: 'Comprobante de entrega',
  proofOpen: (n) => `Abrir el PDF (${n} ${n === 1 ? 'página' : 'páginas'})`,
  proofAtStop: (n) => `Parada ${n}`,
  noHistory: 'Aún no hay novedades.',
  lastPosition: 'Última posición',
  noPosition: 'La posición del camión se muestra mientras la carga está en camino.',
  mapLabel: 'El camión en el mapa',
  loadStatus: { PLANNED: 'Planificada', ASSIGNED: 'Asignada', EN_ROUTE: 'En camino', AT_STOP: 'En una parada', DELIVERED: 'Entregada', CANCELLED: 'Cancelada' },
  stopStatus: { PENDING: 'Programada', ARRIVED: 'Llegó', DEPARTED: 'Completada' },
  stopKind: { PICKUP: 'Recogida', DELIVERY: 'Entrega' },
  timesIn: (zone) => `Horas en ${zone}`,
  updated: (time) => `Actualizado ${time}`,
  expires: (time) => `Este enlace funciona hasta ${time}`,
  refreshFailed: 'No se pudo actualizar. Se muestra la última actualización.',
  loading: 'Cargando el envío',
  expiredTitle: 'Este enlace ha caducado',
  expiredBody: 'Los enlaces de seguimiento funcionan por un tiempo limitado. Pida un enlace nuevo al transportista.',
  failedTitle: 'El seguimiento no está disponible',
  failedBody: 'No pudimos conectar con el servidor. Revise su conexión e inténtelo de nuevo.',
  retry: 'Reintentar',
  poweredBy: 'Seguimiento por Fleetline',
  temperature: {
    title: 'Temperatura',
    setPoint: (band) => `Punto de ajuste ${band}`,
    readAt: (time) => `Leída a las ${time}`,
    inRange: 'En rango',
    outOfRange: 'Fuera de rango',
    chart: (hours) => `Temperatura de las últimas ${hours} horas, con la banda del punto de ajuste`,
  },
  map: {
    baseMap: 'Mapa base',
    offline: 'Sin conexión',
    loading: 'Cargando el mapa',
    unavailable: 'Mapa de calles no disponible',
    showingOffline: 'Se muestra el mapa sin conexión.',
    close: 'Cerrar',
  },
};

const fr: TrackWords = {
  title: 'Suivi de l’envoi',
  vehicleTitle: 'Position du camion',
  noVehiclePosition: 'Le camion n’a pas encore transmis sa position. Cette page se met à jour toute seule.',
  load: (n) => `Chargement ${n}`,
  truck: (n) => `Camion ${n}`,
  reference: 'Référence',
  nextStop: 'Prochain arrêt',
  eta: 'Arrivée estimée',
  confidence: { HIGH: 'Confiance élevée', MEDIUM: 'Confiance moyenne', LOW: 'Confiance faible' },
  noEta: 'Pas encore d’estimation',
  atStop: (name) => `À ${name}`,
  arrivedAt: 'Arrivé',
  departedAt: 'Parti',
  appointment: 'Rendez-vous',
  late: 'En retard',
  onTime: 'À l’heure',
  delivered: 'Livré',
  cancelled: 'Ce chargement a été annulé',
  stops: 'Arrêts',
  history: 'Historique du statut',
  proofTitle: 'Preuve de livraison',
  proofOpen: (n) => `Ouvrir le PDF (${n} ${n === 1 ? 'page' : 'pages'})`,
  proofAtStop: (n) => `Arrêt ${n}`,
  noHistory: 'Pas encore de mise à jour.',
  lastPosition: 'Dernière position',
  noPosition: 'La position du camion est affichée pendant le trajet.',
  mapLabel: 'Le camion sur la carte',
  loadStatus: { PLANNED: 'Planifié', ASSIGNED: 'Affecté', EN_ROUTE: 'En route', AT_STOP: 'À un arrêt', DELIVERED: 'Livré', CANCELLED: 'Annulé' },
  stopStatus: { PENDING: 'Prévu', ARRIVED: 'Arrivé', DEPARTED: 'Terminé' },
  stopKind: { PICKUP: 'Enlèvement', DELIVERY: 'Livraison' },
  timesIn: (zone) => `Heures en ${zone}`,
  updated: (time) => `Mis à jour ${time}`,
  expires: (time) => `Ce lien fonctionne jusqu’au ${time}`,
  refreshFailed: 'Mise à jour impossible. Dernière mise à jour affichée.',
  loading: 'Chargement de l’envoi',
  expiredTitle: 'Ce lien a expiré',
  expiredBody: 'Les liens de suivi fonctionnent pour une durée limitée. Demandez un nouveau lien au transporteur.',
  failedTitle: 'Le suivi est indisponible',
  failedBody: 'Impossible de joindre le serveur. Vérifiez votre connexion et réessayez.',
  retry: 'Réessayer',
  poweredBy: 'Suivi par Fleetline',
  temperature: {
    title: 'Température',
    setPoint: (band) => `Consigne ${band}`,
    readAt: (time) => `Relevée à ${time}`,
    inRange: 'Dans la plage',
    outOfRange: 'Hors plage',
    chart: (hours) => `Température des ${hours} dernières heures, avec la plage de consigne`,
  },
  map: {
    baseMap: 'Fond de carte',
    offline: 'Hors ligne',
    loading: 'Chargement de la carte',
    unavailable: 'Plan des rues indisponible',
    showingOffline: 'La carte hors ligne est affichée.',
    close: 'Fermer',
  },
};

export const TRACK_WORDS: Record<Language, TrackWords> = { en, es, fr };
