/** The modes of exposing the demo app, the same names on both clouds. */
/**
 * The exposure modes, the same names on both clouds (see docs/exposures.md),
 * in matrix order: neighbouring pairs differ in one variable (API, targets,
 * layer, traffic policy). GKE offers no `native-l4` (see `EXPOSURE_UNAVAILABLE`).
 */
export const EXPOSURE_MODES = ['native', 'gateway', 'nodeport', 'nodeport-l4', 'nodeport-local', 'native-l4'] as const;

export type ExposureMode = (typeof EXPOSURE_MODES)[number];

/** What a lab without an `exposures` list deploys: every mode (each cloud makes those it offers). */
export const DEFAULT_EXPOSURES: readonly ExposureMode[] = EXPOSURE_MODES;
