package io.schedext.plugins.volumebinding;

import java.util.List;

/**
 * VolumeBinding's args ({@code VolumeBindingArgs}). {@code shape} is only used for capacity
 * scoring, which needs the StorageCapacityScoring feature gate (alpha, off); with the gate off it
 * is accepted and ignored here, where upstream's validation rejects a configured shape.
 *
 * @param bindTimeoutSeconds how long PreBind waits for the volumes to be bound; default 600, must
 *     be &gt;= 0
 * @param shape the utilization-to-score function for capacity scoring; ignored
 */
public record VolumeBindingArgs(Long bindTimeoutSeconds, List<UtilizationShapePoint> shape) {

  /** The default bind timeout. */
  public static final long DEFAULT_BIND_TIMEOUT_SECONDS = 600;

  /** Applies the defaults to missing fields. */
  public VolumeBindingArgs {
    if (bindTimeoutSeconds == null) {
      bindTimeoutSeconds = DEFAULT_BIND_TIMEOUT_SECONDS;
    }
    shape = shape == null ? List.of() : List.copyOf(shape);
  }

  /**
   * One point of the scoring shape.
   *
   * @param utilization the volume utilization, 0–100
   * @param score the score at that utilization, 0–10
   */
  public record UtilizationShapePoint(int utilization, int score) {}
}
