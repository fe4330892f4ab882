package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.List;
import java.util.Map;

/**
 * A pod's claims sorted as upstream's {@code GetPodVolumeClaims}: bound (volume name and
 * bind-completed annotation), unbound with delayed binding (WaitForFirstConsumer class, no volume
 * name) and unbound immediate (everything else, pre-bound claims included), plus the PVs of the
 * delayed claims' classes. Immutable.
 *
 * @param bound the bound claims, in volume order
 * @param unboundDelayBinding the unbound WaitForFirstConsumer claims, in volume order
 * @param unboundImmediate the unbound claims that should already be bound
 * @param volumesByClass the PVs of each class a delayed claim asks for
 */
public record PodVolumeClaims(
    List<PersistentVolumeClaim> bound,
    List<PersistentVolumeClaim> unboundDelayBinding,
    List<PersistentVolumeClaim> unboundImmediate,
    Map<String, List<PersistentVolume>> volumesByClass) {}
