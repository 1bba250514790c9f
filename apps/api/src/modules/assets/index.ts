// The assets module's public file: other modules import from here only (imports inside the module stay direct).
export { assetLabel, lockAsset, selectAssets } from './assets.repository.ts';
export { unpairAssetInTx, unpairInTx } from './device-unpairing.ts';
export { assetConditions, assetValues, listAssets } from './assets.service.ts';
export type { AssetFilter } from './assets.service.ts';
export { vehicleOdometerAt, vehicleOdometers, vehicleOdometerSql } from './vehicle-odometer.ts';
export type { OdometerSource, VehicleOdometer } from './vehicle-odometer.ts';
export { recordCardReads, type CardReadInput } from './driver-cards.service.ts';
