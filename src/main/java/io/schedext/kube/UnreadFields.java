package io.schedext.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.util.Set;

/**
 * Fields of Kubernetes objects that no part of the extender reads, skipped while decoding instead
 * of being built and then dropped: {@code metadata.managedFields} (a third of a typical pod's JSON,
 * decoded into nested maps), the ephemeral containers' statuses, what a container status says
 * besides the container's name and resources (its state, image, restarts, ...; the resources are
 * read: an in-place resize counts them), and what a container runs with rather than what it asks of
 * a node (its command and arguments, environment, probes, lifecycle hooks and volume mounts; the
 * volumes themselves are the pod's and are read). Writing is unchanged: an object that has them
 * still encodes them.
 */
public final class UnreadFields {

  /** The field of {@link ObjectMeta} skipped. */
  static final String META = "managedFields";

  private static final String EPHEMERAL_CONTAINER_STATUSES = "ephemeralContainerStatuses";

  /** The fields of {@link PodStatus} skipped. */
  static final Set<String> POD_STATUS = Set.of(EPHEMERAL_CONTAINER_STATUSES);

  private UnreadFields() {}

  @JsonIgnoreProperties(value = META, allowGetters = true)
  private abstract static class Meta {}

  @JsonIgnoreProperties(value = EPHEMERAL_CONTAINER_STATUSES, allowGetters = true)
  private abstract static class Status {}

  @JsonIgnoreProperties(
      value = {
        "allocatedResourcesStatus",
        "containerID",
        "image",
        "imageID",
        "lastState",
        "ready",
        "restartCount",
        "started",
        "state",
        "stopSignal",
        "user",
        "volumeMounts"
      },
      allowGetters = true)
  private abstract static class ContainerState {}

  /**
   * The fields of {@link ContainerStatus} skipped: all but the container's name, {@code resources}
   * and {@code allocatedResources}.
   */
  static final Set<String> CONTAINER_STATUS =
      Set.of(ContainerState.class.getAnnotation(JsonIgnoreProperties.class).value());

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
    mapper.addMixIn(ContainerStatus.class, ContainerState.class);
    mapper.addMixIn(Container.class, Runs.class);
    return mapper;
  }

  /** Whether {@link #skipIn} was applied to {@code mapper}. */
  static boolean skippedIn(ObjectMapper mapper) {
    return mapper.findMixInClassFor(ObjectMeta.class) == Meta.class
        && mapper.findMixInClassFor(PodStatus.class) == Status.class
        && mapper.findMixInClassFor(ContainerStatus.class) == ContainerState.class
        && mapper.findMixInClassFor(Container.class) == Runs.class;
  }
}
