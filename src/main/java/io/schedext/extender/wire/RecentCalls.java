package io.schedext.extender.wire;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What decoding carries from one call to the next: the last pod decoded ({@link RecentPod}), which
 * a body repeating its bytes gets back, and the node names of the last filter reply ({@link
 * RecentNames}), kept by the filter verb and matched by the prioritize body that repeats them. Both
 * are single entries, replaced by the next call; losing one costs a decode, never a wrong answer.
 * Thread-safe.
 */
public final class RecentCalls {

  private final RecentPod pod;
  private final RecentNames names = new RecentNames();

  /** Empty; pods are decoded by {@code mapper}, the mapper of the bodies they come in. */
  public RecentCalls(ObjectMapper mapper) {
    this.pod = new RecentPod(mapper);
  }

  /** The last pod decoded. */
  public RecentPod pod() {
    return pod;
  }

  /** The node names of the last filter reply. */
  public RecentNames names() {
    return names;
  }
}
