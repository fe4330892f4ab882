package io.schedext.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.util.Set;

/**
 * Fields of Kubernetes objects that no part of the extender reads, skipped while decoding instead
 * of being built and then dropped: {@code metadata.managedFields} (a third of a typical pod's JSON,
 * decoded into nested maps) and the pod's container statuses. Writing is unchanged: an object that
 * has them still encodes them.
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

  /** Makes {@code mapper} skip those fields when it decodes; call before its first use. */
  public static ObjectMapper skipIn(ObjectMapper mapper) {
    mapper.addMixIn(ObjectMeta.class, Meta.class);
    mapper.addMixIn(PodStatus.class, Status.class);
    return mapper;
  }

  /** Whether {@link #skipIn} was applied to {@code mapper}. */
  static boolean skippedIn(ObjectMapper mapper) {
    return mapper.findMixInClassFor(ObjectMeta.class) == Meta.class
        && mapper.findMixInClassFor(PodStatus.class) == Status.class;
  }
}
