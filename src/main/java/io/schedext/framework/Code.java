package io.schedext.framework;

/** The outcome codes a plugin reports, in upstream order and with upstream names. */
public enum Code {
  /** The plugin ran and found nothing against the pod. */
  SUCCESS("Success"),
  /** An internal failure: the attempt stops, no preemption. */
  ERROR("Error"),
  /** The pod does not fit; preemption may make room. */
  UNSCHEDULABLE("Unschedulable"),
  /** The pod does not fit and preemption cannot change that. */
  UNSCHEDULABLE_AND_UNRESOLVABLE("UnschedulableAndUnresolvable"),
  /** Permit only: hold the pod until allowed, rejected or timed out. */
  WAIT("Wait"),
  /**
   * Bind: not this binder's pod. PreFilter/PreScore: nothing to do for this pod, skip this plugin
   * later on.
   */
  SKIP("Skip"),
  /** The pod is waiting for something outside the scheduler; no back-off. */
  PENDING("Pending");

  private final String upstreamName;

  Code(String upstreamName) {
    this.upstreamName = upstreamName;
  }

  /**
   * The name upstream prints for this code ({@code Unschedulable}, {@code
   * UnschedulableAndUnresolvable}, ...).
   */
  public String upstreamName() {
    return upstreamName;
  }

  /** Parses an upstream code name; throws {@link IllegalArgumentException} for an unknown one. */
  public static Code fromUpstreamName(String name) {
    for (Code c : values()) {
      if (c.upstreamName.equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown status code \"" + name + "\"");
  }

  @Override
  public String toString() {
    return upstreamName;
  }
}
