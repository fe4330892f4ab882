package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.framework.PodInfo;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads the pod of a filter, prioritize, preempt or explain request: checks the fields every verb
 * needs, defaults the namespace as the API server does, and remembers the pod for a following bind
 * that the cluster source cannot answer yet ({@link SeenPods}). Thread-safe.
 */
final class IncomingPods {

  /** A pod read, and what the framework reads of it. */
  private record Read(Pod pod, PodInfo info) {}

  private final SeenPods seen;

  /**
   * The last pod read. The request decoder hands prioritize the very instance filter decoded when
   * kube-scheduler sent the same bytes ({@link io.schedext.extender.wire.RecentPod}), and then the
   * framework's view of it is reused too. Never null (a read of no pod at first), so that the first
   * call on this instance takes the path every later one takes: the calls of separate verbs, on an
   * instance of their own, compile it.
   */
  private final AtomicReference<Read> last = new AtomicReference<>(new Read(null, null));

  IncomingPods(SeenPods seen) {
    this.seen = seen;
  }

  /**
   * The pod of a request as the framework reads it; a missing or unreadable pod is a {@link
   * BadRequestException}.
   */
  PodInfo read(Pod pod) {
    if (pod == null) {
      throw new BadRequestException("field \"Pod\": is required");
    }
    if (pod.getMetadata() == null
        || pod.getMetadata().getName() == null
        || pod.getMetadata().getName().isBlank()) {
      throw new BadRequestException("field \"Pod.metadata.name\": is required");
    }
    if (pod.getMetadata().getNamespace() == null) {
      pod.getMetadata().setNamespace("default");
    }
    Read read = last.get();
    PodInfo info;
    if (read.pod() == pod) {
      info = read.info();
    } else {
      info = parse(pod);
      last.set(new Read(pod, info));
    }
    seen.remember(pod);
    return info;
  }

  /**
   * {@code pod} as the framework reads it; an unreadable pod (a bad quantity, say) is a {@link
   * BadRequestException}.
   */
  static PodInfo parse(Pod pod) {
    try {
      return PodInfo.of(pod);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("field \"Pod\": " + e.getMessage());
    }
  }

  /** The pods kept for a following bind. */
  SeenPods seen() {
    return seen;
  }
}
