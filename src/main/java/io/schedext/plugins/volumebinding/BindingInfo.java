package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;

/**
 * A claim and the existing volume chosen for it on a node (a static binding).
 *
 * @param pvc the claim to bind
 * @param pv the proposed volume
 */
public record BindingInfo(PersistentVolumeClaim pvc, PersistentVolume pv) {}
