package io.schedext.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.util.Set;

/**
 * Fields of Kubernetes objects that no part of the extender reads, skipped while decoding instead
 * of being built and then dropped: {@code metadata.managedFields} (a third of a typical pod's JSON,
 * decoded into nested maps), the pod's container statuses, and what a container runs with rather
 * than what it asks of a node (its command and arguments, environment, probes, lifecycle hooks and
 * volume mounts; the volumes themselves are the pod's and are read). Writing is unchanged: an
 * object that has them still encodes them.
 */
public final class UnreadFields {

  /** The field of {@link ObjectMeta} skipped. */
  static final String META = "managedFields";

  private static final String CONTAINER_STATUSES = "containerStatuses";
  private static final String INIT_CONTAINER_STATUSES = "initContainerStatuses";
  private static final String EPHEMERAL_CONTAINER_STATUSES = "ephemeralContainerStatuses";

  /** The fields of {@link PodStatus} skipped. */
  static final Set<String> POD_STATUS =
      Set.of(CONTAINER_STATUSES, INIT_CONTAINER_STATUSES, EPHEMERAL_CONTAINER_STATUSES);

  private UnreadFields() {}

  @JsonIgnoreProperties(value = META, allowGetters = true)
  private abstract static class Meta {}

  @JsonIgnoreProperties(
      value = {CONTAINER_STATUSES, INIT_CONTAINER_STATUSES, EPHEMERAL_CONTAINER_STATUSES},
      allowGetters = true)
  private abstract static class Status {}

  @JsonIgnoreProperties(
      value = {
        "command",
        "args",
        "env",
        "envFrom",
        "livenessProbe",
        "readinessProbe",
        "startupProbe",
        "lifecycle",
        "volumeMounts",
        "volumeDevices"
      },
      allowGetters = true)
  private abstract static class Runs {}

  /**
   * The fields of {@link Container} skipped: what a container runs with, which the cache's trimming
   * dropped after decoding them.
   */
  static final Set<String> CONTAINER =
      Set.of(Runs.class.getAnnotation(JsonIgnoreProperties.class).value());

  /** Makes {@code mapper} skip those fields when it decodes; call before its first use. */
  public static ObjectMapper skipIn(ObjectMapper mapper) {
    mapper.addMixIn(ObjectMeta.class, Meta.class);
    mapper.addMixIn(PodStatus.class, Status.class);
    mapper.addMixIn(Container.class, Runs.class);
    return mapper;
  }

  /** Whether {@link #skipIn} was applied to {@code mapper}. */
  static boolean skippedIn(ObjectMapper mapper) {
    return mapper.findMixInClassFor(ObjectMeta.class) == Meta.class
        && mapper.findMixInClassFor(PodStatus.class) == Status.class
        && mapper.findMixInClassFor(Container.class) == Runs.class;
  }
}
